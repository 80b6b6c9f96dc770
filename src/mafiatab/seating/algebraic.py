"""Constructions that beat any search where they apply.

* N = 10q, q a prime power ≥ 11, R ≤ q: round a has tables {(x, a·x + c) : x < 10} over GF(q)
  (seating.md); two players with different x meet only in the round of slope (y₂−y₁)/(x₂−x₁),
  so no pair meets twice.
* N = 20 (two tables), R ≤ 19: the balanced rows of a Paley Hadamard matrix of order 20 are
  ±1 vectors, pairwise orthogonal, so any two rounds overlap 5/5/5/5 and Σm² meets the bound
  of seating.md exactly; among the row subsets we keep the one with the fewest pairs at max.
"""

from __future__ import annotations

import itertools

import numpy as np
from numpy.typing import NDArray

from mafiatab.seating.model import TABLE_SIZE


def _prime_power(q: int) -> tuple[int, int] | None:
    for p in range(2, q + 1):
        if q % p == 0:
            k, x = 0, q
            while x % p == 0:
                x //= p
                k += 1
            return (p, k) if x == 1 else None
    return None


def _is_irreducible(poly: list[int], p: int) -> bool:
    """Monic poly (low → high coefficients) of degree k ≤ 3 has no root ⇔ irreducible;
    for higher degrees we check divisibility by every monic poly of degree ≤ k/2."""
    k = len(poly) - 1
    for d in range(1, k // 2 + 1):
        for tail in itertools.product(range(p), repeat=d):
            div = list(tail) + [1]
            rem = poly[:]
            for i in range(k - d, -1, -1):
                c = rem[i + d]
                if c:
                    for j in range(d + 1):
                        rem[i + j] = (rem[i + j] - c * div[j]) % p
            if not any(rem[:d]):
                return False
    return True


class GF:
    """GF(p^k) with elements 0..q-1 (base-p digits are polynomial coefficients)."""

    def __init__(self, q: int) -> None:
        pk = _prime_power(q)
        if pk is None:
            raise ValueError(f"{q} is not a prime power")
        self.p, self.k, self.q = pk[0], pk[1], q
        self.poly: list[int] = [1]
        if self.k > 1:
            for tail in itertools.product(range(self.p), repeat=self.k):
                cand = list(tail) + [1]
                if cand[0] and _is_irreducible(cand, self.p):
                    self.poly = cand
                    break
        self.add = np.array([[self._add(a, b) for b in range(q)] for a in range(q)])
        self.mul = np.array([[self._mul(a, b) for b in range(q)] for a in range(q)])

    def _digits(self, a: int) -> list[int]:
        return [(a // self.p**i) % self.p for i in range(self.k)]

    def _num(self, d: list[int]) -> int:
        return sum(c * self.p**i for i, c in enumerate(d))

    def _add(self, a: int, b: int) -> int:
        return self._num([(x + y) % self.p for x, y in zip(self._digits(a), self._digits(b), strict=True)])

    def _mul(self, a: int, b: int) -> int:
        if self.k == 1:
            return (a * b) % self.p
        da, db = self._digits(a), self._digits(b)
        prod = [0] * (2 * self.k - 1)
        for i, x in enumerate(da):
            for j, y in enumerate(db):
                prod[i + j] = (prod[i + j] + x * y) % self.p
        for i in range(len(prod) - 1, self.k - 1, -1):
            c = prod[i]
            if c:
                for j in range(self.k + 1):
                    prod[i - self.k + j] = (prod[i - self.k + j] - c * self.poly[j]) % self.p
        return self._num(prod[: self.k])


def affine_applies(players: int, games: int, tables: int) -> bool:
    if players % TABLE_SIZE or tables * TABLE_SIZE != players:
        return False
    q = players // TABLE_SIZE
    return q >= 11 and games <= q and _prime_power(q) is not None


def affine_seating(players: int, games: int, rng: np.random.Generator) -> list[list[list[int]]]:
    """Rounds of q tables where no pair meets twice; players relabelled at random by the seed."""
    q = players // TABLE_SIZE
    field = GF(q)
    perm = rng.permutation(players)
    slopes = rng.permutation(q)[:games]
    rounds: list[list[list[int]]] = []
    for a in slopes:
        rnd = []
        for c in range(q):
            table = []
            for x in range(TABLE_SIZE):
                y = int(field.add[field.mul[int(a), x], c])
                table.append(int(perm[x * q + y]))
            rnd.append(table)
        rounds.append(rnd)
    return rounds


def _paley20() -> NDArray[np.int64]:
    q = 19
    squares = {(x * x) % q for x in range(1, q)}
    chi = [0] + [1 if x in squares else -1 for x in range(1, q)]
    s = np.zeros((q + 1, q + 1), dtype=np.int64)
    s[0, 1:] = 1
    s[1:, 0] = -1
    for i in range(q):
        for j in range(q):
            s[i + 1, j + 1] = chi[(j - i) % q]
    h = np.eye(q + 1, dtype=np.int64) + s
    h = h * h[0][None, :]  # first row all +1, so every other row is balanced
    rows: NDArray[np.int64] = h[1:]
    return rows


def hadamard_applies(players: int, games: int, tables: int) -> bool:
    return players == 20 and tables == 2 and 1 <= games <= 19


def hadamard_seating(games: int, rng: np.random.Generator) -> list[list[list[int]]]:
    """Two tables a round from balanced Hadamard rows: Σm² equals the bound of seating.md."""
    rows = _paley20()
    iu = np.triu_indices(20, 1)
    agree = (rows[:, :, None] == rows[:, None, :])[:, iu[0], iu[1]].astype(np.int64)
    best: tuple[int, int] | None = None
    pick: tuple[int, ...] = ()
    for comb in itertools.combinations(range(19), games):
        m = agree[list(comb)].sum(axis=0)
        key = (int(m.max()), int((m == m.max()).sum()))
        if best is None or key < best:
            best, pick = key, comb
    perm = rng.permutation(20)
    order = rng.permutation(len(pick))
    rounds = []
    for i in order:
        row = rows[pick[i]]
        plus = [int(perm[j]) for j in range(20) if row[j] > 0]
        minus = [int(perm[j]) for j in range(20) if row[j] < 0]
        rounds.append([plus, minus])
    return rounds
