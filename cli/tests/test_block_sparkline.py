"""The sparkline `touchline qoe` draws in a terminal: blocks scaled from zero to the series' peak,
a gap where a step has no figure, and a long series narrowed without losing its spikes."""

import pytest

from cli.block_sparkline import BLOCKS, fitted, sparkline


def test_zero_is_the_lowest_block_and_the_peak_the_highest():
    assert sparkline([0, 1, 2, 4, 8]) == "▁▂▃▅█"
    assert sparkline([0.0, 0.01, 0.02]) == "▁▅█"  # a ratio is scaled the same way


def test_a_flat_line_is_flat_whatever_its_level():
    assert sparkline([5, 5, 5]) == BLOCKS[-1] * 3
    assert sparkline([0, 0, 0]) == BLOCKS[0] * 3


def test_a_step_without_a_figure_is_a_gap_which_a_zero_is_not():
    assert sparkline([0.0, None, 0.2]) == f"{BLOCKS[0]} {BLOCKS[-1]}"


def test_nothing_draws_nothing():
    assert sparkline([]) == ""


def test_a_long_series_is_narrowed_to_the_width_keeping_each_chunks_peak():
    series = [0.0] * 120
    series[61] = 1.0  # one short spike
    assert fitted(series, 40)[20] == 1.0 and len(fitted(series, 40)) == 40
    drawn = sparkline(series, 40)
    assert len(drawn) == 40 and drawn.count(BLOCKS[-1]) == 1


def test_a_chunk_with_no_figure_stays_a_gap():
    assert fitted([None, None, 1.0, None], 2) == [None, 1.0]


def test_a_sparkline_is_at_least_one_character_wide():
    with pytest.raises(ValueError):
        fitted([1.0, 2.0], 0)
