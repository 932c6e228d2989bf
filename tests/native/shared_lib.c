/*
 * shared_lib.c - the shared library of the native tests (native_test.py's
 * *_libraries, library_views_test.py): a strided sum over n doubles and a
 * pointer chase of n dependent loads, built with the host's or a cross
 * compiler into lib.so and called from the tests' programs.
 */
struct node {
    struct node *next;
    long pad[7];
};
__attribute__((noinline)) double lib_sum(const double *a, long n)
{
    double s = 0;
    for (long i = 0; i < n; i++)
        s += a[i];
    return s;
}
__attribute__((noinline)) long lib_chase(struct node *p, long n)
{
    long k = 0;
    while (n--) {
        p = p->next;
        k += p != 0;
    }
    return k;
}
