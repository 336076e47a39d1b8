/* text.c - reading input files and reporting bad input, once for all loaders.
 *
 * Not a kernel model: this is the edge where user files enter.  A file is
 * read whole (inputs are scenario files, job files and traces of at most a
 * few hundred MB), optionally gunzipped, and refused unless it is text;
 * a UTF-8 byte-order mark is skipped.  Error messages cut a long value.
 */
#include "pcsim/text.h"

#include "pcsim/params.h"

#include <gio/gio.h>
#include <string.h>

/* A bad value can be a whole file's worth of bytes: a run of more than
 * PCS_ECHO_MAX bytes without a blank is cut to its start and its length,
 * and the message to PCS_ECHO_MAX * 8 bytes, for every input. */
#define PCS_ECHO_MAX 120

static char *cut_long(const char *msg) {
  GString *out = g_string_new(NULL);
  for (const char *p = msg; *p;) {
    size_t run = strcspn(p, " \t\n");
    if (run > PCS_ECHO_MAX) {
      const char *end = g_utf8_find_prev_char(p, p + PCS_ECHO_MAX / 2 + 1);
      g_string_append_len(out, p, end - p);
      g_string_append_printf(out, "...[%zu bytes in all]", run);
    } else {
      g_string_append_len(out, p, (gssize)run);
    }
    p += run;
    size_t blank = strspn(p, " \t\n");
    g_string_append_len(out, p, (gssize)blank);
    p += blank;
  }
  if (out->len > 8 * PCS_ECHO_MAX) {
    const char *end = g_utf8_find_prev_char(out->str, out->str + 8 * PCS_ECHO_MAX);
    g_string_truncate(out, (gsize)(end - out->str));
    g_string_append(out, "...");
  }
  return g_string_free(out, FALSE);
}

gboolean pcs_input_error(GError **error, const char *path, guint line, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  g_autofree char *full = g_strdup_vprintf(fmt, ap);
  va_end(ap);
  g_autofree char *msg = cut_long(full);
  if (line)
    g_set_error(error, PCS_ERROR, PCS_ERROR_INPUT, "%s:%u: %s", path, line, msg);
  else
    g_set_error(error, PCS_ERROR, PCS_ERROR_INPUT, "%s: %s", path, msg);
  return FALSE;
}

/* The line of the first NUL byte or byte that is not UTF-8, or 0. */
static guint binary_line(const char *data, gsize len) {
  const char *end = data + len;
  if (g_utf8_validate(data, (gssize)len, &end)) return 0; /* with a length, a NUL is invalid too */
  guint line = 1;
  for (const char *p = data; p < end; p++) line += *p == '\n';
  return line;
}

gboolean pcs_text_check(const char *path, const char *data, gsize len, GError **error) {
  guint line = binary_line(data, len);
  if (line) return pcs_input_error(error, path, line, "not a text file (binary data)");
  return TRUE;
}

static gboolean gunzip(const char *path, char **text, gsize *len, GError **error) {
  g_autoptr(GInputStream) raw = g_memory_input_stream_new_from_data(*text, (gssize)*len, g_free);
  g_autoptr(GZlibDecompressor) z = g_zlib_decompressor_new(G_ZLIB_COMPRESSOR_FORMAT_GZIP);
  g_autoptr(GInputStream) in = g_converter_input_stream_new(raw, G_CONVERTER(z));
  g_autoptr(GOutputStream) out = g_memory_output_stream_new_resizable();
  *text = NULL; /* owned by RAW now */
  GError *e = NULL;
  if (g_output_stream_splice(out, in, G_OUTPUT_STREAM_SPLICE_CLOSE_SOURCE, NULL, &e) < 0 ||
      !g_output_stream_write_all(out, "", 1, NULL, NULL, &e) || !g_output_stream_close(out, NULL, &e)) {
    pcs_input_error(error, path, 0, "broken gzip data: %s", e->message);
    g_error_free(e);
    return FALSE;
  }
  *len = g_memory_output_stream_get_data_size(G_MEMORY_OUTPUT_STREAM(out)) - 1;
  *text = g_memory_output_stream_steal_data(G_MEMORY_OUTPUT_STREAM(out));
  return TRUE;
}

gboolean pcs_text_read(const char *path, PcsTextFlags flags, char **text, gsize *len, GError **error) {
  gsize n = 0;
  *text = NULL;
  if (g_file_test(path, G_FILE_TEST_IS_DIR)) return pcs_input_error(error, path, 0, "is a directory, expected a file");
  GError *e = NULL;
  if (!g_file_get_contents(path, text, &n, &e)) {
    pcs_input_error(error, path, 0, "cannot read: %s", e->message);
    g_error_free(e);
    return FALSE;
  }
  gboolean gz = (flags & PCS_TEXT_GZIP) && n >= 2 && (guchar)(*text)[0] == 0x1f && (guchar)(*text)[1] == 0x8b;
  if ((gz && !gunzip(path, text, &n, error)) || !pcs_text_check(path, *text, n, error)) {
    g_clear_pointer(text, g_free);
    return FALSE;
  }
  if (n >= 3 && !memcmp(*text, "\xef\xbb\xbf", 3)) { /* a UTF-8 byte-order mark (Windows editors) */
    memmove(*text, *text + 3, n - 2);
    n -= 3;
  }
  if (len) *len = n;
  return TRUE;
}
