// Client-side folds of /v1/samples rows. /v1/stats/difficulty filters only by batch, so when
// the researcher also filters by type, method, level or date, the dashboard folds the sample
// list itself into the same shape (same buckets, same rounding of the pass rate to 0.1).

function bucket() {
  return { total: 0, accepted: 0, rejected: 0, solved_samples: 0, rate_sum: 0 };
}

/** Accepted over finished (accepted + rejected) samples, as the API computes it: samples still
 * in flight are no verdict yet. null while none has finished. */
export function acceptanceRate(accepted, rejected) {
  const finished = accepted + rejected;
  return finished ? Math.round((accepted / finished) * 1e4) / 1e4 : null;
}

function finish(key, acc) {
  return {
    key,
    total: acc.total,
    accepted: acc.accepted,
    rejected: acc.rejected,
    acceptance_rate: acceptanceRate(acc.accepted, acc.rejected),
    solved_samples: acc.solved_samples,
    mean_pass_rate: acc.solved_samples ? Math.round((acc.rate_sum / acc.solved_samples) * 1e4) / 1e4 : null,
  };
}

const byKey = (a, b) => (a < b ? -1 : a > b ? 1 : 0);

/** Timestamps without a zone are UTC (SQLite returns naive datetimes). */
export function parseTime(text) {
  return new Date(/[zZ]|[+-]\d\d:?\d\d$/.test(text) ? text : text + "Z");
}

/** Keeps rows created within [from, to] (dates as YYYY-MM-DD, whole UTC days, both inclusive). */
export function inDateRange(rows, from, to) {
  const lo = from ? Date.parse(from + "T00:00:00Z") : -Infinity;
  const hi = to ? Date.parse(to + "T00:00:00Z") + 86400000 : Infinity;
  if (lo === -Infinity && hi === Infinity) return rows;
  return rows.filter((row) => {
    const t = parseTime(row.created_at).getTime();
    return t >= lo && t < hi;
  });
}

export function foldDifficulty(rows) {
  const types = new Map();
  const levels = new Map();
  const rates = new Map();
  const table = {};
  let total = 0;
  let accepted = 0;
  let rejected = 0;
  for (const row of rows) {
    const ok = row.status === "accepted";
    const no = row.status === "rejected";
    const rate = row.solver_k && row.solver_passes !== null && row.solver_passes !== undefined
      ? row.solver_passes / row.solver_k : null;
    for (const [map, key] of [[types, row.constraint_type], [levels, row.level]]) {
      if (!map.has(key)) map.set(key, bucket());
      const acc = map.get(key);
      acc.total += 1;
      acc.accepted += ok ? 1 : 0;
      acc.rejected += no ? 1 : 0;
      if (rate !== null) {
        acc.solved_samples += 1;
        acc.rate_sum += rate;
      }
    }
    total += 1;
    accepted += ok ? 1 : 0;
    rejected += no ? 1 : 0;
    if (rate !== null) {
      const r = Math.round(rate * 10) / 10;
      const cell = rates.get(r) || { pass_rate: r, total: 0, accepted: 0 };
      cell.total += 1;
      cell.accepted += ok ? 1 : 0;
      rates.set(r, cell);
      const label = r.toFixed(1);
      table[row.level] = table[row.level] || {};
      table[row.level][label] = (table[row.level][label] || 0) + 1;
    }
  }
  const sortedKeys = (map) => [...map.keys()].sort(byKey);
  return {
    total,
    accepted,
    rejected,
    acceptance_rate: acceptanceRate(accepted, rejected),
    by_type: sortedKeys(types).map((k) => finish(k, types.get(k))),
    by_level: sortedKeys(levels).map((k) => finish(k, levels.get(k))),
    pass_rate: [...rates.values()].sort((a, b) => a.pass_rate - b.pass_rate),
    level_pass_rate: table,
  };
}
