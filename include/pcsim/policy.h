/* policy.h - readpages policies: how a thread turns a readahead list into reads.
 *
 *   immediate      read each page right after its insert (extent_readpages before 2012)
 *   pool:N         pool N successful inserts, then read them (Liu Bo's patch, N = 16)
 *   pool-contig:N  as pool:N, but a failed insert flushes the pool (later upstream fix)
 *   window         insert the whole window first, split at pages already present;
 *                  each batch is its own call with its own bio (v5.8 and later)
 */
#ifndef PCSIM_POLICY_H
#define PCSIM_POLICY_H

#include <glib.h>
#include <stdint.h>

#define PCS_POLICY_KINDS(X)      \
  X(IMMEDIATE, "immediate")      \
  X(POOL, "pool")                \
  X(POOL_CONTIG, "pool-contig")  \
  X(WINDOW, "window")

typedef enum {
#define X(name, text) PCS_POLICY_##name,
  PCS_POLICY_KINDS(X)
#undef X
} PcsPolicyKind;

typedef struct {
  PcsPolicyKind kind;
  uint32_t pool; /* pages pooled before reading; 1 for immediate, 0 = unbounded (window) */
  char name[32]; /* canonical spelling, e.g. "pool:16" */
} PcsPolicy;

#define PCS_POLICY_DEFAULT_POOL 16u
#define PCS_POLICY_MAX_POOL 65536u

const char *pcs_policy_kind_name(PcsPolicyKind kind);
/* Parses "immediate", "pool", "pool:N", "pool-contig:N", "window". */
gboolean pcs_policy_parse(const char *text, PcsPolicy *out, GError **error);
/* Comma-separated list, appended to ARRAY (of PcsPolicy). */
gboolean pcs_policy_parse_list(const char *text, GArray *array, GError **error);
/* The --policy values GIVEN (each a comma list) or, when there are none,
 * the list FALLBACK; errors name "--policy" or FALLBACK_WHERE. */
gboolean pcs_policy_parse_given(char **given, const char *fallback, const char *fallback_where, GArray *array,
                                GError **error);

#endif
