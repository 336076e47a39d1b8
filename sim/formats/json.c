/* json.c - writing and reading JSON, once for every command.
 *
 * Models nothing.  The writer keeps a stack of open containers; writing a
 * member first closes the previous one off with a comma and, in a LINES
 * container, a newline and the indent of its depth.  So a container that
 * opens as LINES closes on its own line ("[\n  ]" when empty) and an INLINE
 * one closes on the line it opened ("{}" when empty), which is the layout
 * pcsim has always printed:
 *
 *   {                              <- LINES
 *     "seed": 1,
 *     "results": [                 <- LINES
 *       {"policy": "immediate", "bio_pages_hist": {"1": 3}}   <- INLINE
 *     ]
 *   }
 *
 * Strings are escaped here and nowhere else.  The reader is json-glib's:
 * indentation and spacing never matter to what pcsim reads back.
 */
#include "pcsim/json.h"

#include "pcsim/params.h"

#include <math.h>
#include <string.h>

void pcs_json_init(PcsJson *w, GString *out) {
  memset(w, 0, sizeof *w);
  w->out = out;
  w->level[0].colon = ": ";
  w->level[0].empty = TRUE;
}

void pcs_json_escape(GString *out, const char *s) {
  g_autofree char *valid = g_utf8_validate(s, -1, NULL) ? NULL : g_utf8_make_valid(s, -1); /* JSON is UTF-8 */
  if (valid) s = valid;
  g_string_append_c(out, '"');
  for (const unsigned char *c = (const unsigned char *)s; *c; c++) {
    if (*c == '"' || *c == '\\') g_string_append_c(out, '\\');
    if (*c < 0x20)
      g_string_append_printf(out, "\\u%04x", *c);
    else
      g_string_append_c(out, (char)*c);
  }
  g_string_append_c(out, '"');
}

/* Separator before a value, then its key. */
static void member(PcsJson *w, const char *key) {
  if (w->depth > 0) {
    gboolean first = w->level[w->depth].empty;
    if (!first) g_string_append_c(w->out, ',');
    if (w->level[w->depth].lines) {
      g_string_append_c(w->out, '\n');
      for (guint i = 0; i < w->depth; i++) g_string_append(w->out, "  ");
    } else if (!first) {
      g_string_append_c(w->out, ' ');
    }
  }
  g_assert((key != NULL) == (w->depth > 0 && w->level[w->depth].close == '}'));
  w->level[w->depth].empty = FALSE;
  if (!key) return;
  pcs_json_escape(w->out, key);
  g_string_append(w->out, w->level[w->depth].colon);
}

static void begin(PcsJson *w, const char *key, PcsJsonLayout layout, char open, char close) {
  member(w, key);
  g_assert(w->depth < PCS_JSON_MAX_DEPTH);
  g_string_append_c(w->out, open);
  const char *colon = w->level[w->depth].colon;
  w->depth++;
  w->level[w->depth].lines = layout == PCS_JSON_LINES;
  w->level[w->depth].empty = TRUE;
  w->level[w->depth].close = close;
  w->level[w->depth].colon = colon;
}

void pcs_json_begin_object(PcsJson *w, const char *key, PcsJsonLayout layout) { begin(w, key, layout, '{', '}'); }

void pcs_json_begin_array(PcsJson *w, const char *key, PcsJsonLayout layout) { begin(w, key, layout, '[', ']'); }

void pcs_json_end(PcsJson *w) {
  g_assert(w->depth > 0);
  if (w->level[w->depth].lines) {
    g_string_append_c(w->out, '\n');
    for (guint i = 1; i < w->depth; i++) g_string_append(w->out, "  ");
  }
  g_string_append_c(w->out, w->level[w->depth].close);
  w->depth--;
}

void pcs_json_end_document(PcsJson *w) {
  pcs_json_end(w);
  g_assert(w->depth == 0);
  g_string_append_c(w->out, '\n');
}

void pcs_json_set_colon(PcsJson *w, const char *colon) { w->level[w->depth].colon = colon; }

void pcs_json_string(PcsJson *w, const char *key, const char *s) {
  member(w, key);
  pcs_json_escape(w->out, s ? s : "");
}

void pcs_json_string_pairs(PcsJson *w, const char *key, char *const *kv, PcsJsonLayout layout) {
  pcs_json_begin_object(w, key, layout);
  for (; kv && kv[0] && kv[1]; kv += 2) pcs_json_string(w, kv[0], kv[1]);
  pcs_json_end(w);
}

void pcs_json_uint(PcsJson *w, const char *key, uint64_t v) {
  member(w, key);
  g_string_append_printf(w->out, "%" G_GUINT64_FORMAT, v);
}

void pcs_json_double(PcsJson *w, const char *key, const char *format, double v) {
  char buf[G_ASCII_DTOSTR_BUF_SIZE];
  member(w, key);
  g_string_append(w->out, isfinite(v) ? g_ascii_formatd(buf, sizeof buf, format, v) : "null");
}

void pcs_json_raw(PcsJson *w, const char *key, const char *text) {
  member(w, key);
  g_string_append(w->out, text);
}

void pcs_json_hist(PcsJson *w, const char *key, const uint64_t *counts, size_t len) {
  pcs_json_begin_object(w, key, PCS_JSON_INLINE);
  for (size_t k = 0; k < len; k++) {
    if (!counts[k]) continue;
    char name[24];
    g_snprintf(name, sizeof name, "%zu", k);
    pcs_json_uint(w, name, counts[k]);
  }
  pcs_json_end(w);
}

void pcs_json_node(PcsJson *w, const char *key, JsonNode *n, PcsJsonLayout layout) {
  switch (json_node_get_node_type(n)) {
  case JSON_NODE_OBJECT: {
    JsonObject *o = json_node_get_object(n);
    g_autoptr(GList) members = json_object_get_members(o);
    pcs_json_begin_object(w, key, layout);
    for (GList *m = members; m; m = m->next) pcs_json_node(w, m->data, json_object_get_member(o, m->data), PCS_JSON_INLINE);
    pcs_json_end(w);
    return;
  }
  case JSON_NODE_ARRAY: {
    JsonArray *a = json_node_get_array(n);
    pcs_json_begin_array(w, key, layout);
    for (guint i = 0; i < json_array_get_length(a); i++)
      pcs_json_node(w, NULL, json_array_get_element(a, i), PCS_JSON_INLINE);
    pcs_json_end(w);
    return;
  }
  case JSON_NODE_NULL: pcs_json_raw(w, key, "null"); return;
  case JSON_NODE_VALUE: break;
  }
  GType t = json_node_get_value_type(n);
  if (t == G_TYPE_STRING) {
    pcs_json_string(w, key, json_node_get_string(n));
  } else if (t == G_TYPE_INT64) {
    member(w, key);
    g_string_append_printf(w->out, "%" G_GINT64_FORMAT, json_node_get_int(n));
  } else if (t == G_TYPE_BOOLEAN) {
    pcs_json_raw(w, key, json_node_get_boolean(n) ? "true" : "false");
  } else {
    pcs_json_double(w, key, "%.15g", json_node_get_double(n));
  }
}

static const char *digits(const char *p) {
  const char *start = p;
  while (g_ascii_isdigit(*p)) p++;
  return p > start ? p : NULL;
}

gboolean pcs_json_is_number(const char *text) {
  const char *p = text;
  if (*p == '-') p++;
  if (*p == '0')
    p++;
  else if (!(p = digits(p)))
    return FALSE;
  if (*p == '.' && !(p = digits(p + 1))) return FALSE;
  if (*p == 'e' || *p == 'E') {
    p++;
    if (*p == '+' || *p == '-') p++;
    if (!(p = digits(p))) return FALSE;
  }
  return *p == 0;
}

/* ---- reading ---- */

JsonParser *pcs_json_parse(const char *path, const char *text, gssize len, GError **error) {
  JsonParser *parser = json_parser_new_immutable();
  GError *e = NULL;
  if (json_parser_load_from_data(parser, text, len, &e)) return parser;
  /* json-glib names in-memory data "<data>"; put the file's name there */
  const char *msg = e->message;
  if (g_str_has_prefix(msg, "<data>:")) msg += strlen("<data>:");
  g_set_error(error, PCS_ERROR, PCS_ERROR_INPUT, "%s:%s", path, msg);
  g_error_free(e);
  g_object_unref(parser);
  return NULL;
}

const char *pcs_json_get_string(JsonObject *o, const char *key) {
  JsonNode *n = json_object_get_member(o, key);
  return n && JSON_NODE_HOLDS_VALUE(n) && json_node_get_value_type(n) == G_TYPE_STRING ? json_node_get_string(n)
                                                                                      : NULL;
}

#define HIST_MAX_PAGES (1u << 20)

GArray *pcs_json_get_hist(JsonNode *n) {
  if (!n || !JSON_NODE_HOLDS_OBJECT(n)) return NULL;
  JsonObject *h = json_node_get_object(n);
  GArray *a = g_array_new(FALSE, TRUE, sizeof(guint64));
  g_autoptr(GList) members = json_object_get_members(h);
  for (GList *m = members; m; m = m->next) {
    JsonNode *v = json_object_get_member(h, m->data);
    char *end;
    guint64 k = g_ascii_strtoull(m->data, &end, 10);
    if (*end || k > HIST_MAX_PAGES || !JSON_NODE_HOLDS_VALUE(v) || json_node_get_value_type(v) != G_TYPE_INT64 ||
        json_node_get_int(v) < 0) {
      g_array_unref(a);
      return NULL;
    }
    if (a->len <= k) g_array_set_size(a, (guint)k + 1);
    g_array_index(a, guint64, k) = (guint64)json_node_get_int(v);
  }
  return a;
}
