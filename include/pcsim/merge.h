/* merge.h - `pcsim merge`: shards of one sweep back into its output.
 *
 * FILES are the outputs of `pcsim sweep --shard K/N` for K = 1..N, in any
 * order.  The result is byte for byte what the unsharded sweep prints.
 * JSON shards are read as JSON (json.h): re-indented or reformatted shards
 * (jq, json-glib) merge to the same bytes.
 * Shards of different sweeps, a missing or duplicated shard, and a shard
 * with missing rows are refused with a message naming the file.
 */
#ifndef PCSIM_MERGE_H
#define PCSIM_MERGE_H

#include <glib.h>

gboolean pcs_merge(char **files, GString *out, GError **error);

#endif
