/*
 * replay_main.c - a plain driver for a libFuzzer target: every file given,
 * or every file of every directory given, is passed to
 * LLVMFuzzerTestOneInput once. Linked with a target (fuzz/fuzz_*.c) it runs
 * the seed corpus as an ordinary test, under ASan/UBSan in the sanitizer
 * build.
 */
#include <dirent.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int run_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        return -1;
    }
    size_t cap = 1 << 16, len = 0;
    uint8_t *b = malloc(cap);
    size_t k;
    while (b && (k = fread(b + len, 1, cap - len, f)) > 0) {
        len += k;
        if (len == cap) {
            uint8_t *nb = realloc(b, cap *= 2);
            if (!nb)
                free(b);
            b = nb;
        }
    }
    fclose(f);
    if (!b)
        return -1;
    LLVMFuzzerTestOneInput(b, len);
    free(b);
    return 0;
}

int main(int argc, char **argv)
{
    int files = 0, bad = 0;
    for (int i = 1; i < argc; i++) {
        struct stat st;
        if (stat(argv[i], &st) == 0 && S_ISDIR(st.st_mode)) {
            DIR *d = opendir(argv[i]);
            struct dirent *e;
            while (d && (e = readdir(d))) {
                if (e->d_name[0] == '.')
                    continue;
                char p[4096];
                snprintf(p, sizeof p, "%s/%s", argv[i], e->d_name);
                bad += run_file(p) != 0;
                files++;
            }
            if (d)
                closedir(d);
        } else {
            bad += run_file(argv[i]) != 0;
            files++;
        }
    }
    printf("replayed %d inputs, %d unreadable\n", files, bad);
    return bad ? 1 : 0;
}
