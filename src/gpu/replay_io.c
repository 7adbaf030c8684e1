/* replay_io.c: PLACEHOLDER being written (saved replays as JSON). */
#include "replay.h"
int replay_write_json(FILE *f, const replay_result *res) { (void)f; (void)res; return -1; }
int replay_load_json(const char *path, replay_result *res, char *err, size_t errcap)
{ (void)path; (void)res; snprintf(err, errcap, "not yet"); return -1; }
int replay_check_run(const replay_result *res, const graph *g, const run *r, char *err, size_t errcap)
{ (void)res; (void)g; (void)r; snprintf(err, errcap, "not yet"); return -1; }
