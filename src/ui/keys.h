/* keys.h: the key codes beyond ASCII, as the TUI's state sees them
 * (ui_curses.c maps ncurses' to these); a character's key is its Unicode
 * code point, so these start past U+10FFFF. Exports the K_* codes. */
#ifndef MEMTRIS_KEYS_H
#define MEMTRIS_KEYS_H

enum {
    K_UP = 0x110000, /* past every code point */
    K_DOWN,
    K_LEFT,
    K_RIGHT,
    K_HOME,
    K_END,
    K_PGUP,
    K_PGDN,
    K_BACKSPACE,
    K_ENTER,
    K_ESC,
    K_TAB,
    K_BTAB,
    K_F1,
    K_F10,
    K_RESIZE
};

#endif
