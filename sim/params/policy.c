/* policy.c - parsing and naming of readpages policies.
 *
 * The policies themselves run in the model's readpages loop
 * (sim/model/reader.c), which mirrors btrfs extent_readpages() before and
 * after commit 67c9684f48ea and the v5.8 page_cache_ra_unbounded(), and in
 * the step model (sim/model/steps.c).  Here only their names live.
 */
#include "pcsim/policy.h"

#include "pcsim/params.h"
#include "pcsim/text.h"

#include <stdio.h>
#include <string.h>

static const char *const kind_names[] = {
#define X(name, text) text,
  PCS_POLICY_KINDS(X)
#undef X
};

const char *pcs_policy_kind_name(PcsPolicyKind kind) { return kind_names[kind]; }

static gboolean takes_pool(PcsPolicyKind kind) { return kind == PCS_POLICY_POOL || kind == PCS_POLICY_POOL_CONTIG; }

/* "immediate, pool:N, pool-contig:N or window", from the X-macro list. */
static char *all_names(void) {
  GString *s = g_string_new(NULL);
  for (size_t k = 0; k < G_N_ELEMENTS(kind_names); k++)
    g_string_append_printf(s, "%s%s%s", k == 0 ? "" : k + 1 == G_N_ELEMENTS(kind_names) ? " or " : ", ",
                           kind_names[k], takes_pool((PcsPolicyKind)k) ? ":N" : "");
  return g_string_free(s, FALSE);
}

gboolean pcs_policy_parse(const char *text, PcsPolicy *out, GError **error) {
  g_autofree char *t = g_strstrip(g_strdup(text));
  char *colon = strchr(t, ':');
  if (colon) *colon = 0;
  for (size_t k = 0; k < G_N_ELEMENTS(kind_names); k++) {
    if (strcmp(t, kind_names[k]) != 0) continue;
    out->kind = (PcsPolicyKind)k;
    gboolean takes_n = takes_pool(out->kind);
    uint64_t n = takes_n ? PCS_POLICY_DEFAULT_POOL : (out->kind == PCS_POLICY_IMMEDIATE ? 1 : 0);
    if (colon) {
      g_autofree char *where = g_strdup_printf("policy '%s'", text);
      if (!takes_n) return pcs_input_error(error, where, 0, "this policy takes no ':N'");
      if (!pcs_parse_u64(colon + 1, &n) || n < 1 || n > PCS_POLICY_MAX_POOL)
        return pcs_input_error(error, where, 0, "expected a pool size from 1 to %u after ':'", PCS_POLICY_MAX_POOL);
    }
    out->pool = (uint32_t)n;
    if (takes_n)
      snprintf(out->name, sizeof out->name, "%s:%u", kind_names[k], out->pool);
    else
      snprintf(out->name, sizeof out->name, "%s", kind_names[k]);
    return TRUE;
  }
  g_autofree char *where = g_strdup_printf("policy '%s'", text), *names = all_names();
  return pcs_input_error(error, where, 0, "unknown, expected %s", names);
}

gboolean pcs_policy_parse_list(const char *text, GArray *array, GError **error) {
  g_auto(GStrv) parts = g_strsplit(text, ",", -1);
  PcsPolicy none;
  if (!*parts) return pcs_policy_parse(text, &none, error); /* "": no policy named, refused as unknown */
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
