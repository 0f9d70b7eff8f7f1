/* info.h - eccl-info: shared by info.c (build, machine, algorithms, environment; output) and
 * info_model.c (the calibrated cost model, which needs MPI). */
#ifndef ECCL_TOOLS_INFO_H
#define ECCL_TOOLS_INFO_H

#include <stdio.h>

#include "eccl.h"

/* A minimal JSON writer: commas and nesting are tracked, strings escaped, non-finite numbers
 * written as null. */
typedef struct info_json {
    FILE *out;
    int depth;
    int first[32]; /* per nesting level: nothing written yet */
} info_json_t;

void ij_begin_object(info_json_t *j, const char *key); /* key NULL: inside an array or top */
void ij_end_object(info_json_t *j);
void ij_begin_array(info_json_t *j, const char *key);
void ij_end_array(info_json_t *j);
void ij_string(info_json_t *j, const char *key, const char *s); /* s NULL: null */
void ij_number(info_json_t *j, const char *key, double v);
void ij_int(info_json_t *j, const char *key, long long v);
void ij_bool(info_json_t *j, const char *key, int v);

/* --model. open: MPI_Init and an eccl communicator on MPI_COMM_WORLD (collective; on failure a
 * message on stderr from rank 0 and ECCL's result code); text/json: the calibrated model and what
 * auto would choose, for `ranks` ranks (<= 0: the communicator's size); close: free, MPI_Finalize. */
int info_model_open(int *argc, char ***argv, eccl_comm_t *comm, int *rank);
void info_model_text(FILE *out, eccl_comm_t comm, int ranks);
void info_model_json(info_json_t *j, eccl_comm_t comm, int ranks);
void info_model_close(eccl_comm_t *comm);

#endif
