/* text.h - the one way pcsim reads an input file and reports bad input.
 *
 * Every loader (scenario INI, fio job, schedule, kernel trace, result file)
 * reads through pcs_text_read() and reports through pcs_input_error(), so a
 * user sees one message shape everywhere: "FILE:LINE: what, expected what",
 * or "FILE: what" when no line applies.  Errors are PCS_ERROR_INPUT (exit 2).
 */
#ifndef PCSIM_TEXT_H
#define PCSIM_TEXT_H

#include <glib.h>

typedef enum {
  PCS_TEXT_PLAIN = 0,
  PCS_TEXT_GZIP = 1 << 0, /* gunzip the file when it starts with gzip's magic */
} PcsTextFlags;

/* Reads PATH whole into *TEXT (NUL-terminated, *LEN bytes without the NUL;
 * LEN may be NULL), without a leading UTF-8 byte-order mark.  An input error for a directory, a missing or
 * unreadable file, broken gzip data, or bytes that are not UTF-8 text. */
gboolean pcs_text_read(const char *path, PcsTextFlags flags, char **text, gsize *len, GError **error);

/* The text check alone, for loaders given bytes rather than a path:
 * an input error unless DATA[0..LEN) is UTF-8 without NUL bytes, at the
 * line of the first byte that is not. */
gboolean pcs_text_check(const char *path, const char *data, gsize len, GError **error);

/* Sets an input error "PATH:LINE: MESSAGE" ("PATH: MESSAGE" for LINE 0),
 * a run of more than 120 bytes without a blank cut to its start and length,
 * and returns FALSE, so a parser can `return pcs_input_error(...)`. */
gboolean pcs_input_error(GError **error, const char *path, guint line, const char *fmt, ...) G_GNUC_PRINTF(4, 5);

#endif
