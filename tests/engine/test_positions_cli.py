"""``python -m engine positions``: the contract, through a real subprocess."""

from __future__ import annotations

import io
import json
import subprocess
import sys

import pytest

from engine.positions import positions_main


def run(stdin: str | bytes) -> subprocess.CompletedProcess[bytes]:
    data = stdin.encode() if isinstance(stdin, str) else stdin
    return subprocess.run(
        [sys.executable, "-m", "engine", "positions"], input=data, capture_output=True, timeout=60, check=False
    )


def answers(*scenarios: object) -> list[dict]:
    result = run("".join(json.dumps(s) + "\n" for s in scenarios))
    assert result.returncode == 0, result.stderr
    return [json.loads(line) for line in result.stdout.decode().splitlines()]


def hand(button: int, sb: int, bb: int, dead: bool = False) -> dict:
    return {"button": button, "small_blind": sb, "small_blind_dead": dead, "big_blind": bb}


def test_the_example_of_the_contract():
    """DESIGN: seats 3 (500) and 5 (800) bust in the same hand at 5 players: 5 is 4th, 3 is 5th."""
    (out,) = answers(
        {
            "seats": [1, 2, 3, 5, 6],
            "button": 1,
            "hands": [
                {"busted": []},
                {"busted": [{"seat": 3, "stack_at_start": 500}, {"seat": 5, "stack_at_start": 800}]},
                {"busted": []},
            ],
        }
    )
    assert out == {
        "hands": [hand(1, 2, 3), hand(2, 3, 5), hand(3, 5, 6, dead=True)],
        "places": {"3": 5, "5": 4},
    }


def test_a_whole_table_down_to_the_winner_through_heads_up():
    """Seed 000: the last player left wins; heads-up the button posts the small blind."""
    (out,) = answers(
        {
            "seats": [2, 4, 7],
            "button": 7,
            "hands": [
                {"busted": [{"seat": 4, "stack_at_start": 1500}]},  # the big blind busts
                {"busted": []},
                {"busted": [{"seat": 7, "stack_at_start": 900}]},
            ],
        }
    )
    assert out["hands"] == [hand(7, 2, 4), hand(2, 2, 7), hand(7, 7, 2)]
    assert out["places"] == {"4": 3, "7": 2, "2": 1}


def test_equal_stacks_share_the_better_place_and_no_winner_while_several_remain():
    (out,) = answers(
        {
            "seats": [1, 2, 3, 4, 5],
            "button": 3,
            "hands": [{"busted": [{"seat": 1, "stack_at_start": 640}, {"seat": 4, "stack_at_start": 640}]}],
        }
    )
    assert out == {"hands": [hand(3, 4, 5)], "places": {"1": 4, "4": 4}}


def test_no_hands_answers_no_hands():
    (out,) = answers({"seats": [1, 2], "button": 1, "hands": []})
    assert out == {"hands": [], "places": {}}


@pytest.mark.parametrize(
    ("scenario", "words"),
    [
        ({"seats": [1, 2, 3], "button": 1, "hands": [{"busted": [{"seat": 6, "stack_at_start": 5}]}]}, "Seat 6"),
        (
            {"seats": [1, 2], "button": 1, "hands": [{"busted": [{"seat": 1, "stack_at_start": 5}]}, {"busted": []}]},
            "fewer than two players",
        ),
        ({"seats": [1], "button": 1, "hands": [{"busted": []}]}, "fewer than two players"),
        ({"seats": [1, 2, 3], "button": 1}, "hands"),
        ({"seats": [1, 2, "x"], "button": 1, "hands": []}, "whole number"),
        ({"seats": [1, 2, 2], "button": 1, "hands": []}, "twice"),
        ({"seats": [1, 2, 3], "button": 1, "hands": [{"busted": [{"seat": 2}]}]}, "stack_at_start"),
        ([1, 2, 3], "JSON object"),
    ],
)
def test_an_impossible_scenario_answers_an_error_line(scenario, words):
    (out,) = answers(scenario)
    assert set(out) == {"error"}
    assert words in out["error"]


def test_error_lines_do_not_stop_the_run_and_blank_lines_are_skipped():
    good = {"seats": [1, 2], "button": 2, "hands": [{"busted": []}]}
    result = run("\n" + json.dumps(good) + "\n   \nnot json\n\n" + json.dumps(good) + "\n")
    assert result.returncode == 0
    lines = [json.loads(x) for x in result.stdout.decode().splitlines()]
    assert len(lines) == 3
    assert lines[0] == lines[2] == {"hands": [hand(2, 2, 1)], "places": {}}
    assert "not valid JSON" in lines[1]["error"]


def test_empty_input_answers_nothing():
    result = run("")
    assert result.returncode == 0 and result.stdout == b""


def test_a_line_that_is_not_utf8_is_an_error_line():
    result = run(b'{"seats": [1, 2], "button": 1, "hands": []}\n\xff\xfe\n\n')
    assert result.returncode == 0
    lines = [json.loads(x) for x in result.stdout.decode().splitlines()]
    assert lines == [{"hands": [], "places": {}}, {"error": "The line is not UTF-8 text."}]


class BrokenInput(io.StringIO):
    def __iter__(self):
        raise OSError(5, "Input/output error")


def test_unreadable_input_exits_non_zero(capsys):
    """Standard input that cannot be read at all is the only non-zero exit (Python itself will
    not start on most unreadable inputs, so this one runs in-process)."""
    out = io.StringIO()
    assert positions_main(BrokenInput(), out) == 2
    assert out.getvalue() == ""
    assert "cannot read standard input" in capsys.readouterr().err


def test_in_process_answers_match_the_subprocess():
    out = io.StringIO()
    assert positions_main(io.StringIO('{"seats": [1, 2], "button": 2, "hands": [{"busted": []}]}\n'), out) == 0
    assert json.loads(out.getvalue()) == {"hands": [hand(2, 2, 1)], "places": {}}
