/* json.h - the one JSON writer and the one JSON reader of every pcsim command.
 *
 * Writer: a streaming writer over a GString.  The caller opens objects and
 * arrays, each either LINES (one member per line, indented two spaces per
 * level) or INLINE (members on one line, separated by ", "), and writes
 * members; the writer places every comma, newline and indent and escapes
 * every string, so no command prints a quote, a backslash or a control
 * character raw.  Numbers are written as the caller formats them (fixed
 * precision, no locale), so outputs are byte-identical run to run.
 *
 * Reader: json-glib's JsonParser behind one function whose errors name the
 * file and line; layout (indentation, spacing) never matters to it.
 */
#ifndef PCSIM_JSON_H
#define PCSIM_JSON_H

#include <glib.h>
#include <json-glib/json-glib.h>
#include <stdint.h>

typedef enum { PCS_JSON_LINES, PCS_JSON_INLINE } PcsJsonLayout;

#define PCS_JSON_MAX_DEPTH 16

typedef struct {
  GString *out;
  guint depth;                 /* open containers */
  struct {
    gboolean lines, empty;
    char close;
    const char *colon;         /* between a key and its value */
  } level[PCS_JSON_MAX_DEPTH + 1];
} PcsJson;

/* Starts writing at the end of OUT; nothing is open.  Keys are followed by
 * ": " until pcs_json_set_colon() says otherwise. */
void pcs_json_init(PcsJson *w, GString *out);
/* Every function taking KEY writes a member of the innermost object (KEY
 * non-NULL) or an element of the innermost array or the top value (NULL). */
void pcs_json_begin_object(PcsJson *w, const char *key, PcsJsonLayout layout);
void pcs_json_begin_array(PcsJson *w, const char *key, PcsJsonLayout layout);
/* Closes the innermost container (a newline is never added after the top
 * value: pcs_json_end_document() does that). */
void pcs_json_end(PcsJson *w);
void pcs_json_end_document(PcsJson *w);
/* The key separator of the innermost container and of those opened inside
 * it (fio's JSON writes " : "). */
void pcs_json_set_colon(PcsJson *w, const char *colon);

void pcs_json_string(PcsJson *w, const char *key, const char *s);
/* KV (key, value, ..., NULL; NULL: none) as one object of strings in
 * LAYOUT, in KV's order. */
void pcs_json_string_pairs(PcsJson *w, const char *key, char *const *kv, PcsJsonLayout layout);
void pcs_json_uint(PcsJson *w, const char *key, uint64_t v);
/* V printed with FORMAT (one of printf's e, f or g conversions, such as
 * "%.4f"), locale-independent; null when V is not finite. */
void pcs_json_double(PcsJson *w, const char *key, const char *format, double v);
/* TEXT, already valid JSON (a number, or an element written by another
 * PcsJson), copied as it is. */
void pcs_json_raw(PcsJson *w, const char *key, const char *text);
/* A parsed value as it is: containers in LAYOUT, those inside them INLINE;
 * integers as integers, other numbers "%.15g". */
void pcs_json_node(PcsJson *w, const char *key, JsonNode *n, PcsJsonLayout layout);
/* A bio-size histogram: {"pages": count, ...} for the non-zero counts, one
 * line; the same bytes in run, sweep, trace-stats and explore. */
void pcs_json_hist(PcsJson *w, const char *key, const uint64_t *counts, size_t len);

/* S as a JSON string literal, quotes included. */
void pcs_json_escape(GString *out, const char *s);
/* TRUE when TEXT is exactly one JSON number (RFC 8259 grammar). */
gboolean pcs_json_is_number(const char *text);

/* Parses LEN bytes of TEXT (-1: NUL-terminated) named PATH in messages
 * ("PATH:LINE: ..."); returns the parser holding the root, or NULL. */
JsonParser *pcs_json_parse(const char *path, const char *text, gssize len, GError **error);
/* MEMBER of O as a string, or NULL when absent or not a string. */
const char *pcs_json_get_string(JsonObject *o, const char *member);
/* A histogram written by pcs_json_hist() back into counts by pages (NULL
 * when N is not an object of non-negative integers). */
GArray *pcs_json_get_hist(JsonNode *n);

#endif
