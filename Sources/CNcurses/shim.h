#ifndef CNCURSES_SHIM_H
#define CNCURSES_SHIM_H

// SwiftPM drops pkg-config's -D flags, so ask for the wide-character API here.
#define NCURSES_WIDECHAR 1
#ifndef _XOPEN_SOURCE_EXTENDED
#define _XOPEN_SOURCE_EXTENDED 1
#endif

#include <locale.h>
#include <ncursesw/curses.h>

// Macros Swift cannot import, exposed as inline functions.
static inline int cn_attr_bold(void) { return (int)A_BOLD; }
static inline int cn_attr_dim(void) { return (int)A_DIM; }
static inline int cn_attr_reverse(void) { return (int)A_REVERSE; }
static inline int cn_attr_underline(void) { return (int)A_UNDERLINE; }
static inline int cn_attr_normal(void) { return (int)A_NORMAL; }
static inline int cn_color_pair(int pair) { return (int)COLOR_PAIR(pair); }
static inline int cn_key_resize(void) { return KEY_RESIZE; }
static inline int cn_err(void) { return ERR; }
static inline int cn_color_pairs(void) { return COLOR_PAIRS; }
static inline int cn_key_code_yes(void) { return KEY_CODE_YES; }
static inline int cn_key_mouse(void) { return KEY_MOUSE; }
static inline mmask_t cn_button1_pressed(void) { return BUTTON1_PRESSED; }
static inline mmask_t cn_button1_released(void) { return BUTTON1_RELEASED; }
static inline mmask_t cn_button4_pressed(void) { return BUTTON4_PRESSED; }
static inline mmask_t cn_button5_pressed(void) { return BUTTON5_PRESSED; }

// C globals Swift 6 rejects as not concurrency-safe, read through functions.
static inline WINDOW *cn_stdscr(void) { return stdscr; }

// newterm on the process's own stdin/stdout; unlike initscr it returns NULL on failure
// (an unknown TERM, say) instead of exiting.
// ncurses 6.4 counts a new screen as not yet started until it has once been left and resumed,
// and until then flushes its output at every cursor move: a 100x30 frame went out in some 120
// writes, each a wake-up for the terminal (or a packet over SSH) and a frame drawn in pieces.
// One endwin and doupdate here, before anything is drawn, make each frame one write.
static inline SCREEN *cn_newterm_stdio(void) {
    SCREEN *screen = newterm(NULL, stdout, stdin);
    if (screen != NULL) {
        endwin();
        doupdate();
    }
    return screen;
}

#endif
