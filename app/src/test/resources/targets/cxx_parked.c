/*
 * C frames named as g++ names C++ functions, built with gcc (no C++ compiler needed): the library
 * that cxx_parked.py loads parks its caller in remora_test::Parker<int>::wait(int) const, under
 * remora_test::(anonymous namespace)::enter(), under the plain C entry point park_in_cxx.
 * Built with -O0, so that no call is inlined or made a tail call.
 */
#include <unistd.h>

void parker_wait(int n) __asm__("_ZNK11remora_test6ParkerIiE4waitEi");
void enter(void) __asm__("_ZN11remora_test12_GLOBAL__N_15enterEv");

void parker_wait(int n) {
    while (n > 0) {
        pause();
    }
}

void enter(void) {
    parker_wait(1);
}

void park_in_cxx(void) {
    enter();
}
