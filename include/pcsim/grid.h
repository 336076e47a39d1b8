/* grid.h - a sweep's parameter grid, from `--vary KEY=LIST` options.
 *
 * LIST is "a,b,c", an arithmetic range "1..8" (step 1, or "0..100+25"), or
 * a geometric range "1..64*2" (1, 2, 4, ... 64).  Range ends take the key's
 * units ("10us..10ms*10").  KEY is a scenario key (section.key), "policy"
 * (a list of policies) or "pool" ("pool=1..64*2" is short for the policies
 * pool:1, pool:2, ... pool:64).
 *
 * Points are numbered in mixed radix with the first --vary outermost; the
 * policies are the innermost loop.  Row r of a sweep is point r / P under
 * policy r % P.
 */
#ifndef PCSIM_GRID_H
#define PCSIM_GRID_H

#include "pcsim/params.h"
#include "pcsim/policy.h"

typedef struct {
  char *key;                 /* "workload.threads", "policy" or "pool" */
  const PcsParamInfo *info;  /* NULL for policy and pool */
  GPtrArray *assign;         /* value given to pcs_params_set(), per item */
  GPtrArray *column;         /* value as printed in the axis column (base units) */
} PcsAxis;

typedef struct {
  GPtrArray *axes;      /* PcsAxis *, scenario keys, in the order given */
  PcsAxis *policy_axis; /* "policy" or "pool" axis, or NULL */
  GArray *policies;     /* PcsPolicy, the innermost loop */
  GPtrArray *specs;     /* the --vary options as given, for provenance */
  uint64_t points;      /* product of the scenario axes' lengths */
} PcsGrid;

#define PCS_GRID_MAX_ROWS (UINT64_C(1) << 24)

void pcs_grid_init(PcsGrid *g);
void pcs_grid_clear(PcsGrid *g);
/* One --vary KEY=LIST option. */
gboolean pcs_grid_add(PcsGrid *g, const char *spec, GError **error);
/* After the last --vary: fixes the policies (from the policy axis, --policy
 * or scenario.policies, in that order) and counts the points. */
gboolean pcs_grid_finish(PcsGrid *g, const PcsParams *base, char **policies, GError **error);
/* Sets the scenario keys of POINT on P (a copy of the base scenario). */
gboolean pcs_grid_apply(const PcsGrid *g, uint64_t point, PcsParams *p, GError **error);
/* Index of AXIS's value at POINT. */
guint pcs_grid_coord(const PcsGrid *g, guint axis, uint64_t point);
/* Column names of the varied keys, in row order. */
void pcs_grid_columns(const PcsGrid *g, GPtrArray *out);
/* Cells of the varied keys for (POINT, policy index). */
void pcs_grid_cells(const PcsGrid *g, uint64_t point, guint policy, GPtrArray *out);
/* Expands LIST for INFO (NULL: plain integers) into base-unit values. */
gboolean pcs_grid_expand(const PcsParamInfo *info, const char *list, GPtrArray *assign, GPtrArray *column,
                         GError **error);

/* --shard K/N */
typedef struct {
  uint32_t k, n; /* 1 <= k <= n */
} PcsShard;
gboolean pcs_shard_parse(const char *text, PcsShard *out, GError **error);
/* Points of the grid in shard S: those with point % n == k - 1. */
static inline gboolean pcs_shard_has(const PcsShard *s, uint64_t point) {
  return point % s->n == s->k - 1;
}

#endif
