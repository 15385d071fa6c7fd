#!/usr/bin/env python3
"""scaling-model.py: the performance model of blocked Floyd-Warshall on P GPUs of
docs/PERFORMANCE.md entry 47 (1D row blocks and 2D block-cyclic), printed as that entry's tables.

Per round (R = N / B rounds, N = V padded to the tile B):
  T_round = max(c, b) + l
  c  compute of the rank with the most tiles: tiles * B^3 / (r_inf * fill(tiles))
  b  pivot bytes a rank receives / link rate (hidden under c by the lookahead of the round ahead)
  l  exposed latency: t0 (the round's launches and closures) + alpha per broadcast hop
  1D row blocks:  tiles = ceil(R / P) * R; b = 4 B N / beta; l = t0 + alpha ceil(log2 P)
  2D block-cyclic on a sqrt(P) x sqrt(P) grid (P a square; else the nearest grid p x q, p <= q):
                  tiles = ceil(R / p) * ceil(R / q); b = 4 B N (1 / (p beta_row) + 1 / (q beta_col));
                  l = t0 + alpha (1 + ceil(log2 p) + ceil(log2 q))
  fill(tiles) = tiles / (tiles + 600): a round with few tiles leaves SMs idle (fitted to the
  H100's one-GPU rates at V = 1024 ... 40000, FACTS.md).
  Host staging: c gains the two pivot copies over PCIe on the compute stream (2 * 4BN / 55 GB/s)
  and b is the measured per-round communication (2.63 ms on 2 H200s, 3.95 ms on 4).
  python3 bench/scaling-model.py [--h200]
"""
import math
import sys

B = 64                 # GPU tile (the cuda shapes' 64x64)
T0 = 30e-6             # per-round floor on one H100: launches, pivot closure (fitted, see entry 47)
ALPHA = 10e-6          # per broadcast hop (assumed: NCCL small-message time)
NVLINK = 340e9         # NCCL bus bandwidth on 2-4 H100s (329-355 GB/s), NVLink NV18
IB = 50e9              # InfiniBand NDR, 400 Gb/s per ConnectX-7 port, one port per GPU
PCIE = 55e9            # pinned device-to-host, measured on 2x H200
GPU_MEM = {"H100": 79.18 * 2**30, "H200": 139.8 * 2**30}
R_INF = {"H100": 12.37e12, "H200": 12.88e12}   # fitted so that one GPU gives 12.31 / 12.82 T at 40000


def fill(tiles):
    return tiles / (tiles + 600)


def rounds(v):
    return math.ceil(v / B)


def grid(p):
    q = math.isqrt(p)
    while p % q:
        q -= 1
    return q, p // q  # rows <= columns


def one_gpu(v, r):
    n = rounds(v)
    tiles = n * n
    return n * (tiles * B**3 / (r * fill(tiles)) + T0)


def rows_1d(v, p, r, beta):
    n = rounds(v)
    tiles = math.ceil(n / p) * n
    c = tiles * B**3 / (r * fill(tiles))
    b = 4 * B * n * B / beta
    lat = T0 + ALPHA * math.ceil(math.log2(p))
    return n * (max(c, b) + lat), c, b, lat


def block_2d(v, p, r, beta_row, beta_col):
    n = rounds(v)
    pr, pc = grid(p)
    tiles = math.ceil(n / pr) * math.ceil(n / pc)
    c = tiles * B**3 / (r * fill(tiles))
    # The pivot column's p pieces (4BN / p bytes a rank) travel along the process rows, the
    # pivot row's q pieces (4BN / q) down the process columns.
    b = 4 * B * n * B * (1 / (pr * beta_row) + 1 / (pc * beta_col))
    lat = T0 + ALPHA * (1 + math.ceil(math.log2(pr)) + math.ceil(math.log2(pc)))
    return n * (max(c, b) + lat), c, b, lat


def main():
    gpu = "H200" if "--h200" in sys.argv else "H100"
    r = R_INF[gpu]
    print(f"# {gpu}: r_inf {r / 1e12:.2f} T, t0 {T0 * 1e6:.0f} us, alpha {ALPHA * 1e6:.0f} us, "
          f"NVLink {NVLINK / 1e9:.0f} GB/s, IB {IB / 1e9:.0f} GB/s per GPU\n")
    print("| V | P | links | memory / GPU (1D) | one GPU | 1D compute c | 1D bytes b | 1D time "
          "| 1D eff. | 2D grid | 2D c | 2D b | 2D time | 2D eff. |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for v in (40000, 100000, 200000, 400000):
        t1 = one_gpu(v, r)
        for p in (2, 4, 8, 16, 32, 64, 128, 256):
            multi = p > 8
            beta = IB if multi else NVLINK
            t, c, b, _ = rows_1d(v, p, r, beta)
            # 2D: a process row's ranks share a node (row broadcasts on NVLink) where P > 8
            pr, pc = grid(p)
            t2, c2, b2, _ = block_2d(v, p, r, NVLINK if pc <= 8 or not multi else IB,
                                     IB if multi else NVLINK)
            mem = 4 * v * v / p
            fits = "" if mem < 0.97 * GPU_MEM[gpu] else " (does not fit)"
            print(f"| {v:,} | {p} | {'IB' if multi else 'NVLink'} | {mem / 1e9:.1f} GB{fits} "
                  f"| {t1:.2f} s | {c * 1e3:.3f} ms | {b * 1e3:.3f} ms | {t:.3f} s | "
                  f"{t1 / (p * t):.2f} | {pr}x{pc} | {c2 * 1e3:.3f} ms | {b2 * 1e3:.3f} ms | "
                  f"{t2:.3f} s | {t1 / (p * t2):.2f} |")
    print("\n# Host staging (the transport of 2026-11-27), against that day's 4x H200 runs\n")
    print("| V on P | c + copies | b (measured) | model | measured |")
    print("|---|---|---|---|---|")
    for p, b_host, measured in ((2, 2.63e-3, "2.72-2.74 s"), (4, 3.95e-3, "2.52 s")):
        n = rounds(40000)
        c = rows_1d(40000, p, R_INF["H200"], NVLINK)[1] + 2 * 4 * B * n * B / PCIE
        print(f"| 40,000 on {p} | {c * 1e3:.2f} ms | {b_host * 1e3:.2f} ms | "
              f"{n * max(c, b_host):.2f} s | {measured} |")
    print("\n# Predictions for one node, NCCL over NVLink (1D, as the solver runs)\n")
    print("| case | V on P | compute (model) | strong / weak efficiency |")
    print("|---|---|---|---|")
    t40 = one_gpu(40000, r)
    tw = one_gpu(31748, r)
    print(f"| one GPU | 40,000 on 1 | {t40:.3f} s | - |")
    print(f"| one GPU | 31,748 on 1 | {tw:.3f} s | - |")
    for p in (2, 4, 8):
        t = rows_1d(40000, p, r, NVLINK)[0]
        print(f"| strong | 40,000 on {p} | {t:.3f} s | {t40 / (p * t):.3f} |")
    for p, v in ((2, 40000), (4, 50397), (8, 63496)):
        t = rows_1d(v, p, r, NVLINK)[0]
        print(f"| weak | {v:,} on {p} | {t:.3f} s | {tw / t:.3f} |")
    for p in (2, 4, 8):
        t = rows_1d(80000, p, r, NVLINK)[0]
        print(f"| strong | 80,000 on {p} | {t:.3f} s | {one_gpu(80000, r) / (p * t):.3f} |")


if __name__ == "__main__":
    main()
