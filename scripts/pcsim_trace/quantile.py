"""quantile - the one quantile rule every analysis uses (medians, p10 .. p99).

The f quantile (0 <= f <= 1) of n values is the value at 0-based index floor(n * f) of
the sorted values (the last one when that index is n): the smallest value with more
than a fraction f of the values at or below it.  So the median of an even count is the
upper of the two middle values, never an average, and every figure printed is one of
the values measured.
"""
import math


def quantile(values, f):
    """The f quantile of VALUES by the rule above; NaN when VALUES is empty.

    >>> quantile([4, 1, 3, 2], 0.5)
    3
    >>> quantile([1, 2, 3, 4, 5], 0.5)
    3
    >>> quantile(range(1, 11), 0.9), quantile(range(1, 11), 0.1), quantile([7], 0.99)
    (10, 2, 7)
    """
    v = sorted(values)
    if not v:
        return math.nan
    return v[min(int(len(v) * f), len(v) - 1)]


def quantiles(values, *fractions):
    """The quantile of VALUES at each of FRACTIONS, as a tuple (VALUES sorted once)."""
    v = sorted(values)
    return tuple(quantile(v, f) for f in fractions)
