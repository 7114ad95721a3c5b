"""Batch simulation (issue 15 items 3-5): many battles of scenarios, their statistics and plots, and the
calibration of a scenario against the AI levels.

`backend` (where batches run: local processes or Ray), `batch` (one battle as a CSV row, battles.csv),
`stats` (summary.json: win rates with Wilson intervals, distributions, where units fell), `plots` (the PNGs,
matplotlib without a display) and `balance` (a side against each AI level and personality, and the mirror).
"""
