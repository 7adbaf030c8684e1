/* main.c: memtris's entry point: buffers standard output, then hands the
 * command line to cli_main (cli_main.c). */
#include <stdio.h>
#include "cli.h"

int main(int argc, char **argv)
{
    static char outbuf[1 << 16];
    setvbuf(stdout, outbuf, _IOFBF, sizeof outbuf);
    return cli_main(argc, argv);
}
