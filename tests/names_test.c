/*
 * names_test.c - the shortening rule of the tables' name column
 * (report/names.h): C++ signatures and templates lose their parameter lists,
 * then their template arguments, then their qualifiers, and are cut only at
 * a word's end; every width from 1 to 80 over every name keeps the column's
 * width and cuts no word that another cut could have kept.
 */
#include <ctype.h>
#include <string.h>

#include "check.h"
#include "report/names.h"

static const char *shorten(const char *name, size_t width)
{
    static char buf[1024];
    edan_name_shorten(name, width, buf, sizeof buf);
    return buf;
}

static size_t cols(const char *s)
{
    size_t n = 0;
    for (; *s; s++)
        n += ((unsigned char)*s & 0xc0) != 0x80;
    return n;
}

#define SAME(name, width, want)                                                                                        \
    do {                                                                                                               \
        const char *got = shorten(name, width);                                                                        \
        CHECK(!strcmp(got, want), "'%s' at %d: '%s', expected '%s'", name, (int)(width), got, want);                   \
    } while (0)

static const char *const names[] = {
    "CalcHourglassControlForElems(Domain&, double*, double)",
    "CalcHourglassControlForElems(Domain&, do", /* already cut by someone else */
    "void std::vector<double, std::allocator<double> >::_M_realloc_insert<double const&>(__gnu_cxx::__normal_iterator<"
    "double*, std::vector<double, std::allocator<double> > >, double const&)",
    "std::map<int, std::string>::operator[](int const&)",
    "Field::operator()(unsigned long) const",
    "bool operator<(Point const&, Point const&)",
    "std::ostream& operator<<(std::ostream&, Field const&)",
    "ComputeSYMGS_ref",
    "kernel",
    "a_single_identifier_much_longer_than_the_column_it_has_to_fit",
    "smooth(Field&, int)",
    "lulesh.cc:1362 CalcElemVolume(double const*, double const*) (3)",
    "401a2c CalcHourglassControlForElems(Domain&, double*, double) lulesh.cc:1210",
    "",
};

int main(void)
{
    /* the rule's steps, one at a time */
    SAME("kernel", 40, "kernel");
    SAME("CalcHourglassControlForElems(Domain&, double*, double)", 40, "CalcHourglassControlForElems(…)");
    SAME("CalcHourglassControlForElems(Domain&, do", 39, "CalcHourglassControlForElems(…)");
    SAME("smooth(Field&, int)", 19, "smooth(Field&, int)");
    SAME("smooth(Field&, int)", 18, "smooth(…)");
    SAME("f()", 2, "f…");
    SAME("std::map<int, std::string>::find(int const&)", 30, "std::map<…>::find(…)");
    SAME("std::map<int, std::string>::find(int const&)", 12, "…::find(…)");
    SAME("Field::operator()(unsigned long) const", 26, "Field::operator()(…) const");
    SAME("Field::operator()(unsigned long) const", 24, "…::operator()(…) const");
    SAME("bool operator<(Point const&, Point const&)", 20, "bool operator<(…)");
    SAME("std::ostream& operator<<(std::ostream&, Field const&)", 30, "std::ostream& operator<<(…)");
    SAME("ns::Kernel<float>::apply(float*, long)", 24, "ns::Kernel<…>::apply(…)");
    SAME("ns::Kernel<float>::apply(float*, long)", 20, "…::apply(…)");
    SAME("std::vector<std::map<int, long> >::size() const", 30, "std::vector<…>::size() const");
    SAME("ComputeSYMGS_ref", 10, "ComputeSY…"); /* one word wider than the column: the only cut inside a word */
    SAME("one two three four", 12, "one two…");
    /* a table's composite names: only the parameter lists go, "(3)" and "(function)" stay */
    SAME("lulesh.cc:1362 CalcElemVolume(double const*, double const*) (3)", 40, "lulesh.cc:1362 CalcElemVolume(…) (3)");
    SAME("lulesh.cc:1362 (CalcElemVolume(double const*, int))", 40, "lulesh.cc:1362 (CalcElemVolume(…))");
    SAME("cxx_stencil.cpp:38 double grid::total<double>(std::vector<double> const&) (1)", 44,
         "cxx_stencil.cpp:38 double …::total<…>(…) (1)");
    SAME("cxx_stencil.cpp:38 double grid::total<double>(std::vector<double> const&) (1)", 40,
         "cxx_stencil.cpp:38 double …::total<…>…");
    SAME("Cafébabe éléphant", 10, "Cafébabe…");

    /* every name at every width */
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        for (size_t w = 1; w <= 80; w++) {
            char got[1024];
            const size_t n = edan_name_shorten(names[i], w, got, sizeof got);
            CHECK(n == cols(got) && n <= w, "'%s' at %zu: '%s' is %zu columns", names[i], w, got, n);
            if (cols(names[i]) <= w)
                CHECK(!strcmp(got, names[i]), "'%s' fits %zu but became '%s'", names[i], w, got);
            /* a cut after a letter or digit leaves the word whole: the original continues with no word character */
            const char *ell = strstr(got, "\xe2\x80\xa6");
            if (ell && ell == got + strlen(got) - 3 && ell > got &&
                (isalnum((unsigned char)ell[-1]) || ell[-1] == '_')) {
                const char *in = names[i];
                /* the kept text's last word is a whole word of the name, unless the kept text is one word */
                const char *start = ell;
                while (start > got && (isalnum((unsigned char)start[-1]) || start[-1] == '_'))
                    start--;
                char word[256];
                snprintf(word, sizeof word, "%.*s", (int)(ell - start), start);
                bool whole = false;
                for (const char *p = in; (p = strstr(p, word)); p++)
                    if ((p == in || !(isalnum((unsigned char)p[-1]) || p[-1] == '_')) &&
                        !(isalnum((unsigned char)p[strlen(word)]) || p[strlen(word)] == '_'))
                        whole = true;
                CHECK(whole || start == got, "'%s' at %zu: '%s' cuts the word '%s'", names[i], w, got, word);
            }
        }
    }
    return check_summary();
}
