/*
 * objects.h - the shared objects a traced program mapped: the dynamic
 * loader and the shared libraries of a dynamically linked program.
 *
 * Their code keeps its run-time addresses in the records (the program's own
 * code is rebased to its link addresses: isa/native.h), so a report names
 * it from this map: an object's function symbols, shifted by where it was
 * loaded (edan_elf_add_objects, util/symbols/elf_symbols.h). The tracer learns the
 * map from the process's /proc/self/maps (edan_objmap_scan); a binary trace
 * carries it (EDAN_EV_OBJECT, trace/trace_format.h).
 */
#ifndef EDAN_UTIL_OBJECTS_H
#define EDAN_UTIL_OBJECTS_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* At most this many objects, and paths of at most this many bytes: a map is small, whatever the input. */
#define EDAN_OBJMAP_MAX 1024
#define EDAN_OBJMAP_MAX_PATH 4096

typedef struct edan_object {
    char *path;      /* the file as the process mapped it (the host's path: a sysroot's library under its sysroot) */
    uint64_t lo, hi; /* the addresses its mappings cover, [lo, hi) */
    uint64_t base;   /* where its file offset 0 is mapped: run-time address = link address + base - first
                        PT_LOAD page (0 for a shared library) */
} edan_object;

/*
 * One thread adds objects (the tracer's, or a trace's reader) while the
 * stream's consumers, on threads of their own, may read those added so far:
 * objs is allocated once with room for EDAN_OBJMAP_MAX, so an object never
 * moves; n is published (edan_objmap_published) after the object is
 * complete; an object's path and base never change, and its lo and hi only
 * grow, stored atomically (edan_objmap_get reads them so). The adding thread
 * and anything after the stream may read the fields directly.
 */
typedef struct edan_objmap {
    size_t n;
    edan_object *objs; /* in the order they were added */
} edan_objmap;

/* Add an object (a copy of path); one already there with the same path and base grows to cover [lo, hi).
 * 0, or -1 when out of memory, the map is full or path is empty or too long. */
int edan_objmap_add(edan_objmap *m, const char *path, uint64_t lo, uint64_t hi, uint64_t base);
/* How many objects another thread may read (those added before; more may follow); 0 for NULL. */
size_t edan_objmap_published(const edan_objmap *m);
/* Object i < edan_objmap_published(m), read safely while the adding thread goes on (path is shared). */
edan_object edan_objmap_get(const edan_objmap *m, size_t i);
/* The object whose mappings cover addr, or NULL. */
const edan_object *edan_objmap_find(const edan_objmap *m, uint64_t addr);
void edan_objmap_free(edan_objmap *m);

/*
 * Add the file-backed mappings of this process's /proc/self/maps that are
 * the guest's (a user-mode emulator maps guest address a at host address
 * a + guest_base): a file's mappings at or above guest_base of which none
 * has the host's execute permission (the emulator maps guest code readable
 * only and runs its translation; its own libraries have executable code),
 * other than the file skip_dev/skip_ino (the program itself, rebased
 * elsewhere). Not reentrant (the plugin's vCPU thread calls it). Returns the number of objects added, -1 when the maps
 * cannot be read.
 */
int edan_objmap_scan(edan_objmap *m, uint64_t guest_base, dev_t skip_dev, ino_t skip_ino);

#endif
