"""The TCS Omaha turn track: turn labels like ``"0740 6 June"``.

By day a turn is 20 minutes, by night an hour (reconstructed: the series rules
give the turn lengths; the Omaha text names 20-minute day turns such as 0640,
0740 and 0940, and hour turns for the tide and transports).
"""

from __future__ import annotations

MONTH = "June"


def parse_time(label: str) -> tuple[int, int]:
    """``"0740 6 June"`` -> (day, minutes since midnight)."""
    parts = label.split()
    if (
        len(parts) != 3
        or parts[2] != MONTH
        or not (len(parts[0]) == 4 and parts[0].isascii() and parts[0].isdigit())
        or not (parts[1].isascii() and parts[1].isdigit())
        or not (int(parts[0][:2]) < 24 and int(parts[0][2:]) < 60 and 1 <= int(parts[1]) <= 30)
    ):
        raise ValueError(f"{label!r} is not a turn like '0740 6 June'")
    hh, mm = int(parts[0][:2]), int(parts[0][2:])
    return int(parts[1]), hh * 60 + mm


def format_time(day: int, minutes: int) -> str:
    return f"{minutes // 60:02d}{minutes % 60:02d} {day} {MONTH}"


def is_day(minutes: int) -> bool:
    """Reconstructed: 20-minute daylight turns 0600-2140, one-hour night turns 2200-0500."""
    return 6 * 60 <= minutes < 22 * 60


def turn_labels(start: str, end: str) -> list[str]:
    """TCS turns from ``start`` to ``end``: 20 minutes by day, an hour by night."""
    day, t = parse_time(start)
    last = parse_time(end)
    out = []
    while (day, t) <= last:
        out.append(format_time(day, t))
        step = 20 if is_day(t) else 60
        t += step
        if t >= 24 * 60:
            day, t = day + 1, t - 24 * 60
        if len(out) > 1000:
            raise ValueError("the scenario is too long")
    if not out or out[-1] != end:
        raise ValueError(f"{end!r} is not a turn reached from {start!r}")
    return out


def check_track(labels: list[str]) -> None:
    """A scenario's own list of turns: at least one, each a turn of the track (20 minutes
    by day, an hour by night), in order, none twice (``ValueError`` naming the turn)."""
    if not labels:
        raise ValueError("the scenario has no turns")
    for k, label in enumerate(labels):
        day, minutes = parse_time(label)
        if minutes % (20 if is_day(minutes) else 60):
            raise ValueError(f"turns[{k}]: {label!r} is not a turn of the track")
        if k and parse_time(labels[k - 1]) >= (day, minutes):
            what = "twice" if labels[k - 1] == label else "out of order"
            raise ValueError(f"turns[{k}]: {label!r} is listed {what}")


def next_hour(label: str) -> str:
    """The label one hour after ``label`` (which may lie beyond a scenario's last turn)."""
    day, minutes = parse_time(label)
    minutes += 60
    if minutes >= 24 * 60:
        day, minutes = day + 1, minutes - 24 * 60
    return format_time(day, minutes)


def is_hour_turn(time: str) -> bool:
    """An hour turn (the tide moves and transports land on hour turns: 1.12a, 2.1m)."""
    digits = len(time) == 4 and time.isascii() and time.isdigit()
    return digits and time.endswith("00") and int(time[:2]) < 24
