/* text.c - reading input files and reporting bad input, once for all loaders.
 *
 * Not a kernel model: this is the edge where user files enter.  A file is
 * read whole (inputs are scenario files, job files and traces of at most a
 * few hundred MB), optionally gunzipped, and refused unless it is text.
 */
#include "pcsim/text.h"

#include "pcsim/params.h"

#include <gio/gio.h>
#include <string.h>

gboolean pcs_input_error(GError **error, const char *path, guint line, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  g_autofree char *msg = g_strdup_vprintf(fmt, ap);
  va_end(ap);
  if (line)
    g_set_error(error, PCS_ERROR, PCS_ERROR_INPUT, "%s:%u: %s", path, line, msg);
  else
    g_set_error(error, PCS_ERROR, PCS_ERROR_INPUT, "%s: %s", path, msg);
  return FALSE;
}

gboolean pcs_text_check(const char *path, const char *data, gsize len, GError **error) {
  if (memchr(data, 0, len) || !g_utf8_validate(data, (gssize)len, NULL))
    return pcs_input_error(error, path, 1, "not a text file (binary data)");
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
  if (len) *len = n;
  return TRUE;
}
