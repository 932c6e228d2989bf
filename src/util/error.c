#include "util/error.h"

#include <stdarg.h>
#include <stdio.h>

void edan_error_set(edan_error *e, const char *fmt, ...)
{
    if (!e || e->set)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->msg, sizeof e->msg, fmt, ap);
    va_end(ap);
    e->set = true;
}

void edan_error_clear(edan_error *e)
{
    e->set = false;
    e->msg[0] = '\0';
}
