/* policy.c - parsing and naming of readpages policies.
 *
 * The policies themselves run in reader.c (reader_readpages_next()), which
 * mirrors btrfs extent_readpages() before and after commit 67c9684f48ea and
 * the v5.8 page_cache_ra_unbounded().  Here only their names live.
 */
#include "pcsim/policy.h"

#include "pcsim/params.h"

#include <stdio.h>
#include <string.h>

static const char *const kind_names[] = {
#define X(name, text) text,
  PCS_POLICY_KINDS(X)
#undef X
};

const char *pcs_policy_kind_name(PcsPolicyKind kind) { return kind_names[kind]; }

gboolean pcs_policy_parse(const char *text, PcsPolicy *out, GError **error) {
  g_autofree char *t = g_strstrip(g_strdup(text));
  char *colon = strchr(t, ':');
  if (colon) *colon = 0;
  for (size_t k = 0; k < G_N_ELEMENTS(kind_names); k++) {
    if (strcmp(t, kind_names[k]) != 0) continue;
    out->kind = (PcsPolicyKind)k;
    gboolean takes_n = out->kind == PCS_POLICY_POOL || out->kind == PCS_POLICY_POOL_CONTIG;
    uint64_t n = takes_n ? PCS_POLICY_DEFAULT_POOL : (out->kind == PCS_POLICY_IMMEDIATE ? 1 : 0);
    if (colon) {
      if (!takes_n || !pcs_parse_u64(colon + 1, &n) || n < 1 || n > PCS_POLICY_MAX_POOL) {
        g_set_error(error, PCS_ERROR, PCS_ERROR_INPUT,
                    "policy '%s': %s", text,
                    takes_n ? "expected a pool size from 1 to 65536 after ':'"
                            : "this policy takes no ':N'");
        return FALSE;
      }
    }
    out->pool = (uint32_t)n;
    if (takes_n)
      snprintf(out->name, sizeof out->name, "%s:%u", kind_names[k], out->pool);
    else
      snprintf(out->name, sizeof out->name, "%s", kind_names[k]);
    return TRUE;
  }
  g_set_error(error, PCS_ERROR, PCS_ERROR_INPUT,
              "unknown policy '%s': expected immediate, pool:N, pool-contig:N or window", text);
  return FALSE;
}

gboolean pcs_policy_parse_list(const char *text, GArray *array, GError **error) {
  g_auto(GStrv) parts = g_strsplit(text, ",", -1);
  for (char **p = parts; *p; p++) {
    PcsPolicy pol;
    if (!pcs_policy_parse(*p, &pol, error)) return FALSE;
    g_array_append_val(array, pol);
  }
  return TRUE;
}

gboolean pcs_policy_parse_given(char **given, const char *fallback, const char *fallback_where, GArray *array,
                                GError **error) {
  if (given && *given) {
    for (char **s = given; *s; s++)
      if (!pcs_policy_parse_list(*s, array, error)) {
        g_prefix_error(error, "--policy: ");
        return FALSE;
      }
    return TRUE;
  }
  if (pcs_policy_parse_list(fallback, array, error)) return TRUE;
  g_prefix_error(error, "%s: ", fallback_where);
  return FALSE;
}
