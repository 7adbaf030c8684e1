/* main.c: memtris's entry point: buffers standard output, then hands the
 * command line to cli_main (cli_main.c). */
#include <stdio.h>
#include "cli_main.h"

int main(int argc, char **argv)
{
    static char stdout_buf[1 << 16];
    setvbuf(stdout, stdout_buf, _IOFBF, sizeof stdout_buf);
    return cli_main(argc, argv);
}
