"""``omaha serve`` in real headless browsers (Chromium through Selenium): map play
(a whole LnL game and a TCS e1-draw game clicked on the map and the prompt's
buttons, never the fallback list, the prompt in view after every move; Bloody Omaha
and the Landing Table 40 decisions each), an attack's target marked on the map,
counter names measured inside their counters at the default zoom, zoom and pan, the
facts of a choice on hover, stepping through the game so far, undo, save and load,
two browsers playing two games at once, and two playing one game by invitation.
Mid-play screenshots of the four games go to /work/notes/shots. Skipped where Selenium
or Chromium is missing; ``.ci/run`` installs both. On the shared two-core machine the
whole LnL game takes about 110 s, the whole TCS game about 420 s (marked slow)."""

from __future__ import annotations

import json
import random
import shutil
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

webdriver = pytest.importorskip("selenium.webdriver")
from selenium.webdriver.common.action_chains import ActionChains  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import Select, WebDriverWait  # noqa: E402

from omaha.server import make_server  # noqa: E402
from omaha.server.app import OmahaServer  # noqa: E402
from omaha.server.tables import Table  # noqa: E402
from omaha.session import Session  # noqa: E402

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")
pytestmark = pytest.mark.skipif(not (CHROMIUM and DRIVER), reason="chromium/chromedriver missing")
FLAGS = (
    "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--window-size=1600,1100",
)  # fmt: skip
#: Where the mid-play screenshots go (1600 x 1100).
SHOTS = Path("/work/notes/shots")


def chromium(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """A headless Chromium with a profile (so cookies) and a download folder of its own."""
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    for flag in FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={tmp_path_factory.mktemp('chromium')}")
    downloads = tmp_path_factory.mktemp("downloads")
    options.add_experimental_option("prefs", {"download.default_directory": str(downloads)})
    options.binary_location = CHROMIUM
    driver = webdriver.Chrome(service=Service(DRIVER), options=options)
    size = {"width": 1600, "height": 1100, "deviceScaleFactor": 1, "mobile": False}
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", size)  # the page: 1600 x 1100
    driver.downloads = downloads
    return driver


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    driver = chromium(tmp_path_factory)
    yield driver
    driver.quit()


@pytest.fixture(scope="module")
def second(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """Another person's browser: its own profile, so its own cookie."""
    driver = chromium(tmp_path_factory)
    yield driver
    driver.quit()


def serve(make: Callable[[], Session]) -> tuple[OmahaServer, str]:
    """A server whose browsers each start with ``make()``; the link with its token."""
    srv = make_server(make, port=0)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    return srv, srv.url


def table_of(srv: OmahaServer, browser: Any) -> Table:
    """The game ``browser`` plays on ``srv`` (found by its HttpOnly cookie)."""
    cookie = browser.get_cookie(srv.cookie)
    assert cookie is not None and cookie["httpOnly"] and cookie["sameSite"] == "Strict"
    table = srv.store.current(cookie["value"])
    assert table is not None
    return table


def state(browser: Any) -> dict[str, Any]:
    return browser.execute_script("return window.omahaState();")


def wait_for_page(browser: Any) -> None:
    WebDriverWait(browser, 30).until(lambda d: d.execute_script("return !!window.omahaState();"))


def renders(browser: Any) -> int:
    return int(browser.execute_script("return window.omahaRenders();"))


def click_choice(browser: Any, n: int) -> None:
    """Click choice ``n`` in the fallback list (opened first) and wait for the next position."""
    before = renders(browser)
    fallback = browser.find_element(By.ID, "fallback")
    if not fallback.get_attribute("open"):
        browser.find_element(By.ID, "filter").click()
    browser.find_element(By.CSS_SELECTOR, f'#choices button[data-n="{n}"]').click()
    WebDriverWait(browser, 30).until(lambda d: renders(d) > before)
    assert not browser.find_element(By.ID, "error").text


# -- map play -----------------------------------------------------------------------
def js(browser: Any, script: str, *args: Any) -> Any:
    return browser.execute_script(script, *args)


def rect(browser: Any, element: Any) -> dict[str, float]:
    return dict(js(browser, "const r = arguments[0].getBoundingClientRect();"
                   "return {x: r.left + r.width / 2, y: r.top + r.height / 2, w: r.width,"
                   " h: r.height, left: r.left, top: r.top, right: r.right, bottom: r.bottom};",
                   element))  # fmt: skip


def bring_into_view(browser: Any, css: str) -> Any:
    """Drag the map (as a player would) until the element ``css`` sits well inside it."""
    board = browser.find_element(By.ID, "board")
    for _ in range(12):
        el = browser.find_element(By.CSS_SELECTOR, css)
        r, b = rect(browser, el), rect(browser, board)
        if b["left"] + 40 < r["x"] < b["right"] - 40 and b["top"] + 70 < r["y"] < b["bottom"] - 40:
            return el
        dx = max(-b["w"] / 2 + 30, min(b["w"] / 2 - 30, b["x"] - r["x"]))
        dy = max(-b["h"] / 2 + 30, min(b["h"] / 2 - 30, b["y"] - r["y"]))
        ActionChains(browser).move_to_element(board).click_and_hold().move_by_offset(
            int(dx), int(dy)
        ).release().perform()
    raise AssertionError(f"{css} could not be dragged into view")


def cell_css(browser: Any, cell: str) -> str:
    """The overlay drawn on ``cell`` (a choice's spot or a subject), else the hex itself."""
    for css in (
        f'#overlay [data-spot="{cell}"] polygon',
        f'#overlay [data-subject="{cell}"] polygon',
    ):
        if browser.find_elements(By.CSS_SELECTOR, css):
            return css
    return f'polygon[data-cell="{cell}"]'


def click_cell(browser: Any, cell: str) -> None:
    bring_into_view(browser, cell_css(browser, cell)).click()


def popup_open(browser: Any) -> bool:
    return bool(js(browser, "return !document.getElementById('popup').hidden;"))


def plan_of(browser: Any) -> dict[int, dict[str, Any]]:
    return {c["n"]: c for c in js(browser, "return window.omahaPlan();")}


def play_by_map(browser: Any, n: int) -> None:
    """Make choice ``n`` as a player would: a button by the prompt, or on the map (select
    its piece or hex first when it takes two clicks, then its hex; a menu there when
    several choices share the hex). Waits for the next position."""
    before = renders(browser)
    where = plan_of(browser)[n]
    if where["spot"] is None:
        browser.find_element(By.CSS_SELECTOR, f'#actions button[data-n="{n}"]').click()
    else:
        key = where["subject"]
        if key and js(browser, "return window.omahaSelected();") != key:
            if where["subjectCell"]:
                click_cell(browser, where["subjectCell"])
                if popup_open(browser):
                    css = f'#popup button[data-subject="{key}"]'
                    browser.find_element(By.CSS_SELECTOR, css).click()
            else:
                browser.find_element(
                    By.CSS_SELECTOR, f'#actions button[data-subject="{key}"]'
                ).click()
            assert js(browser, "return window.omahaSelected();") == key
        click_cell(browser, where["spot"])
        if renders(browser) == before and popup_open(browser):
            browser.find_element(By.CSS_SELECTOR, f'#popup button[data-n="{n}"]').click()
    WebDriverWait(browser, 60).until(lambda d: renders(d) > before)
    assert not browser.find_element(By.ID, "error").text
    assert js(browser, "return window.omahaFallbackUses();") == 0


def prompt_in_view(browser: Any) -> None:
    """The whose-turn line and the prompt's buttons are inside the window."""
    height = js(browser, "return window.innerHeight;")
    status = rect(browser, browser.find_element(By.ID, "status"))
    actions = rect(browser, browser.find_element(By.ID, "actions"))
    assert status["top"] >= 0 and status["bottom"] <= height, status
    assert 0 <= actions["top"] < height - 30, actions


def pick(now: dict[str, Any], rng: random.Random, end_bias: float) -> int:
    """A choice: often one that ends something (keeps the game short), else any."""
    choices = now["choices"]
    ends = [c["n"] for c in choices if c["text"].split()[0] in ("end", "stop", "pass", "stay")]
    if ends and rng.random() < end_bias:
        return int(ends[0])
    return int(rng.choice(choices)["n"])


def play_game_by_map(
    browser: Any, rng: random.Random, *, shot: str, end_bias: float, most: int, plan_after: int
) -> int:
    """Play to the end by the map and the prompt's buttons (a whole set-up plan once
    ``plan_after`` moves are made); a screenshot mid-play. Returns the moves made."""
    moves = 0
    while state(browser)["result"] is None:
        now = state(browser)
        plans = [c["n"] for c in now["choices"] if c["plan"]]
        n = plans[0] if plans and moves >= plan_after else pick(now, rng, end_bias)
        play_by_map(browser, n)
        prompt_in_view(browser)
        moves += 1
        if moves == 40 and shot:
            SHOTS.mkdir(parents=True, exist_ok=True)
            browser.save_screenshot(str(SHOTS / shot))
        assert moves < most
    return moves


def test_map_play_undo_save_and_replay(browser: Any) -> None:
    srv, url = serve(lambda: Session("lnl", seed=5, bots={"German": "solitaire"}))
    try:
        browser.get(url)
        wait_for_page(browser)
        # the set-up: the unit to place is selected by itself, its hexes drawn on the map
        placing = [c for c in state(browser)["choices"] if c["cells"]]
        unit = placing[0]["pieces"][0]
        assert js(browser, "return window.omahaSelected();") == f"piece:{unit}"
        assert len(browser.find_elements(By.CSS_SELECTOR, "#overlay .spot")) == len(placing)
        plan = browser.find_element(By.CSS_SELECTOR, '#actions button[data-n="1"]')
        assert plan.text.startswith("plan:")
        for _ in range(5):  # five placements, each one click on a hex
            play_by_map(browser, placing[0]["n"])
            placing = [c for c in state(browser)["choices"] if c["cells"]]
        after_five = state(browser)
        before = renders(browser)
        browser.find_element(By.ID, "undo").click()
        WebDriverWait(browser, 30).until(lambda d: renders(d) > before)
        assert state(browser)["log_total"] < after_five["log_total"]
        undone = state(browser)
        browser.find_element(By.ID, "save").click()
        saved = browser.downloads / "lnl-beach-seed5.json"
        deadline = time.time() + 20
        while not saved.exists() and time.time() < deadline:
            time.sleep(0.2)
        record = json.loads(saved.read_text())
        assert record["game"] == "lnl" and len(record["actions"]) == len(
            table_of(srv, browser).session.state.actions
        )
        # replay the saved record in a fresh server: the same position
        srv2, url2 = serve(lambda: Session("bloody", seed=1))
        try:
            browser.get(url2)
            wait_for_page(browser)
            browser.find_element(By.ID, "load").send_keys(str(saved))
            WebDriverWait(browser, 30).until(lambda d: state(d)["game"] == "lnl")
            loaded = state(browser)
            assert loaded["log_total"] == undone["log_total"]
            assert [c["text"] for c in loaded["choices"]] == [c["text"] for c in undone["choices"]]
        finally:
            srv2.shutdown()
    finally:
        srv.shutdown()


def test_step_back_through_the_game_and_return_live(browser: Any) -> None:
    srv, url = serve(lambda: Session("lnl", seed=5, bots={"German": "solitaire"}))
    try:
        browser.get(url)
        wait_for_page(browser)
        for _ in range(3):
            placing = [c for c in state(browser)["choices"] if c["cells"]]
            play_by_map(browser, placing[0]["n"])
        live_board = js(browser, "return window.omahaBoard();")
        total = state(browser)["actions"]
        browser.find_element(By.ID, "step-back").click()
        WebDriverWait(browser, 10).until(lambda d: js(d, "return window.omahaStepping();"))
        assert js(browser, "return window.omahaStepping().k;") == total - 1
        assert f"action {total - 1} of {total}" in browser.find_element(By.ID, "step-at").text
        assert not browser.find_elements(By.CSS_SELECTOR, "#overlay .spot")  # nothing to play
        browser.find_element(By.ID, "step-first").click()
        WebDriverWait(browser, 10).until(lambda d: js(d, "return window.omahaStepping().k;") == 0)
        browser.find_element(By.ID, "step-fwd").click()
        WebDriverWait(browser, 10).until(lambda d: js(d, "return window.omahaStepping().k;") == 1)
        before = renders(browser)
        browser.find_element(By.ID, "step-live").click()
        WebDriverWait(browser, 10).until(lambda d: renders(d) > before)
        assert js(browser, "return window.omahaStepping();") is None
        assert js(browser, "return window.omahaBoard();") == live_board
        assert browser.find_elements(By.CSS_SELECTOR, "#overlay .spot")
    finally:
        srv.shutdown()


def test_zoom_pan_and_fit_change_only_the_view(browser: Any) -> None:
    srv, url = serve(lambda: Session("tcs", "e1-draw", seed=1, bots={"German": "heuristic"}))
    try:
        browser.get(url)
        wait_for_page(browser)
        board = browser.find_element(By.ID, "board")
        etag = js(browser, "return window.omahaBoard();")
        start = js(browser, "return window.omahaView();")
        # legible at the default zoom: a hex is about 120 px across
        hexagon = rect(browser, browser.find_element(By.CSS_SELECTOR, "polygon[data-cell]"))
        assert 100 <= hexagon["w"] <= 140, hexagon
        browser.find_element(By.ID, "zoom-in").click()
        zoomed = js(browser, "return window.omahaView();")
        assert zoomed["zoom"] > start["zoom"]
        drag = ActionChains(browser).move_to_element(board).click_and_hold()
        drag.move_by_offset(-200, -100).release().perform()
        moved = js(browser, "return window.omahaView();")
        assert moved["x"] > zoomed["x"] and moved["y"] > zoomed["y"]
        ActionChains(browser).scroll_to_element(board).scroll_by_amount(0, 300).perform()
        assert js(browser, "return window.omahaView().zoom;") < moved["zoom"]
        browser.find_element(By.ID, "zoom-fit").click()
        whole = rect(browser, browser.find_element(By.CSS_SELECTOR, "#board svg .background"))
        b = rect(browser, board)
        assert whole["w"] <= b["w"] + 2 and whole["h"] <= b["h"] + 2
        assert js(browser, "return window.omahaBoard();") == etag  # the view, not the board
        assert renders(browser) == 1  # nor a request
    finally:
        srv.shutdown()


def test_hovering_a_fire_shows_its_odds_and_the_legend_speaks_player_words(browser: Any) -> None:
    srv, url = serve(lambda: Session("tcs", "e1-draw", seed=7, bots={"German": "heuristic"}))
    rng = random.Random(3)
    try:
        browser.get(url)
        wait_for_page(browser)
        svg = browser.find_element(By.ID, "board").get_attribute("innerHTML")
        assert "defensive_zone" not in svg and "defensive zone" in svg
        for _ in range(400):  # play by the map until a fire can be resolved
            now = state(browser)
            fire = [c for c in now["choices"] if c["facts"]["chances"]]
            if fire:
                break
            aims = [c["n"] for c in now["choices"]
                    if c["text"].split()[0] in ("fire", "target", "with", "every")]  # fmt: skip
            play_by_map(browser, aims[0] if aims and rng.random() < 0.8 else pick(now, rng, 0.3))
        else:
            raise AssertionError("no fire with odds came up")
        c = fire[0]
        spot = plan_of(browser)[c["n"]]["spot"]
        if spot is None:
            el = browser.find_element(By.CSS_SELECTOR, f'#actions button[data-n="{c["n"]}"]')
            assert c["facts"]["label"] in el.text
        else:
            el = bring_into_view(browser, cell_css(browser, spot))
        ActionChains(browser).move_to_element(el).perform()
        details = browser.find_element(By.ID, "details").text
        for result, p in c["facts"]["chances"]:
            assert f"{result} {p * 100:.0f}%" in details
        assert all(line in details for line in c["facts"]["lines"])
    finally:
        srv.shutdown()


def test_a_whole_lnl_game_played_on_the_map_against_the_solitaire_german(browser: Any) -> None:
    srv, url = serve(lambda: Session("lnl", seed=7, bots={"German": "solitaire"}))
    try:
        browser.get(url)
        wait_for_page(browser)
        moves = play_game_by_map(
            browser, random.Random(7), shot="lnl-midplay.png", end_bias=0.6, most=3000,
            plan_after=4,
        )  # fmt: skip
        assert moves > 40
        assert table_of(srv, browser).session.state.is_terminal()
        assert browser.find_element(By.ID, "result").text.startswith("Game over")
    finally:
        srv.shutdown()


def tcs_game(browser: Any, *, whole: bool) -> None:
    srv, url = serve(lambda: Session("tcs", "e1-draw", seed=7, bots={"German": "heuristic"}))
    try:
        browser.get(url)
        wait_for_page(browser)
        rng = random.Random(11)
        if whole:
            play_game_by_map(
                browser, rng, shot="tcs-midplay.png", end_bias=0.5, most=3000, plan_after=3
            )
            assert table_of(srv, browser).session.state.is_terminal()
            assert browser.find_element(By.ID, "result").text.startswith("Game over")
            return
        kinds = set()
        for _ in range(40):  # part of the set-up by the map, then the first turn
            now = state(browser)
            n = pick(now, rng, 0.3)
            kinds.add(now["choices"][n - 1]["text"].split()[0])
            play_by_map(browser, n)
            prompt_in_view(browser)
        assert len(kinds) >= 4, kinds
    finally:
        srv.shutdown()


def test_tcs_e1_draw_first_moves_played_on_the_map(browser: Any) -> None:
    tcs_game(browser, whole=False)


@pytest.mark.slow
def test_a_whole_tcs_e1_draw_game_played_on_the_map(browser: Any) -> None:
    tcs_game(browser, whole=True)


def new_game(browser: Any, game: str, against: str = "bots") -> None:
    """Start a game from the page's form and wait until the page shows it."""
    before = renders(browser)
    Select(browser.find_element(By.ID, "game")).select_by_value(game)
    Select(browser.find_element(By.ID, "opponents")).select_by_value(against)
    browser.find_element(By.ID, "new").click()
    WebDriverWait(browser, 30).until(lambda d: renders(d) > before and state(d)["game"] == game)


def test_two_browsers_play_two_games_at_once_without_touching_each_other(
    browser: Any, second: Any
) -> None:
    srv, url = serve(lambda: Session("lnl", seed=5, bots={"German": "solitaire"}))
    try:
        browser.get(url)
        second.get(url)
        wait_for_page(browser)
        wait_for_page(second)
        assert browser.current_url.endswith("/") and "token" not in browser.current_url
        new_game(browser, "bloody")
        bloody = state(browser)
        for _ in range(3):
            click_choice(second, 2)
        lnl = state(second)
        assert lnl["game"] == "lnl" and lnl["can_undo"]
        time.sleep(1.5)  # nothing of the other game reaches this page
        assert state(browser)["version"] == bloody["version"]
        click_choice(browser, 1)
        assert state(browser)["game"] == "bloody" and state(browser)["log_total"] > 0
        time.sleep(1.5)
        assert state(second)["version"] == lnl["version"]
        ours, theirs = table_of(srv, browser), table_of(srv, second)
        assert ours is not theirs and len(srv.store.tables) == 2
        assert ours.session.game.name == "bloody" and theirs.session.game.name == "lnl"
    finally:
        srv.shutdown()


def test_two_browsers_play_one_game_by_invitation_each_seeing_its_own_side(
    browser: Any, second: Any
) -> None:
    srv, url = serve(lambda: Session("lnl", seed=5, bots={"German": "solitaire"}))
    try:
        browser.get(url)
        wait_for_page(browser)
        assert not browser.find_element(By.ID, "invite-box").is_displayed()  # bots: no one to ask
        new_game(browser, "lnl", against="people")
        assert state(browser)["sides"] == ["US", "German"]
        assert browser.find_element(By.ID, "invite-box").is_displayed()
        Select(browser.find_element(By.ID, "invite-side")).select_by_value("German")
        browser.find_element(By.ID, "invite").click()
        link = browser.find_element(By.ID, "invite-link")
        WebDriverWait(browser, 10).until(lambda d: "invite=" in link.get_attribute("value"))
        second.get(link.get_attribute("value"))
        wait_for_page(second)
        # the host's page learns by polling that the German side is taken
        WebDriverWait(browser, 10).until(lambda d: state(d)["sides"] == ["US"])
        guest = state(second)
        assert not second.find_element(By.ID, "newgame").is_displayed()  # it plays this game
        assert not second.find_element(By.ID, "invite-box").is_displayed()
        assert browser.find_element(By.ID, "newgame").is_displayed()
        assert guest["sides"] == ["German"] and guest["you"] == "German" and guest["choices"]
        host = state(browser)
        assert host["you"] is None and host["waiting_for"] == "German" and not host["choices"]
        assert "waiting for German" in browser.find_element(By.ID, "status").text
        table = table_of(srv, browser)
        assert table is table_of(srv, second)

        def board(driver: Any) -> str:  # the etag of the board the page shows
            return str(driver.execute_script("return window.omahaBoard();"))

        with table.lock:
            assert board(second) == table.board("German")[0] != table.board("US")[0]
            assert board(browser) == table.board("US")[0]
        # the picture's heading names whose view it is (drawn, if panned out of sight)
        assert "view: German" in second.find_element(By.ID, "board").get_attribute("innerHTML")
        assert "view: US" in browser.find_element(By.ID, "board").get_attribute("innerHTML")
        click_choice(second, 1)  # the German's set-up
        WebDriverWait(browser, 10).until(lambda d: state(d)["you"] == "US")
        assert state(browser)["choices"] and state(second)["waiting_for"] == "US"
        assert not second.find_elements(By.CSS_SELECTOR, "#choices button")
        click_choice(browser, 2)
        WebDriverWait(second, 10).until(
            lambda d: state(d)["log_total"] == state(browser)["log_total"]
        )
        assert state(second)["sides"] == ["German"]
        with table.lock:
            assert board(second) == table.board("German")[0]
    finally:
        srv.shutdown()


def test_an_attack_being_put_together_marks_its_target_on_the_map(browser: Any) -> None:
    srv, url = serve(lambda: Session("lnl", seed=7, bots={"German": "solitaire"}))
    rng = random.Random(5)
    try:
        browser.get(url)
        wait_for_page(browser)
        for _ in range(300):  # by the map, preferring to fire, until an attack is open
            now = state(browser)
            if now["focus"]:
                break
            plans = [c["n"] for c in now["choices"] if c["plan"]]
            fire = [c["n"] for c in now["choices"] if c["text"].split()[0] in ("fire", "at")]
            n = plans[0] if plans else fire[0] if fire and rng.random() < 0.9 else None
            play_by_map(browser, n if n is not None else pick(now, rng, 0.5))
        else:
            raise AssertionError("no attack was opened")
        (target,) = now["focus"]
        assert target in now["prompt"]  # "fire on J11: add firers, resolve or cancel"
        ring = browser.find_element(By.CSS_SELECTOR, f'#overlay .target[data-target="{target}"]')
        hexagon = browser.find_element(By.CSS_SELECTOR, f'polygon[data-cell="{target}"]')
        marked = ring.find_element(By.TAG_NAME, "polygon").get_attribute("points")
        assert marked == hexagon.get_attribute("points")
        r = rect(browser, ring)
        b = rect(browser, browser.find_element(By.ID, "board"))
        assert b["left"] <= r["x"] <= b["right"] and b["top"] <= r["y"] <= b["bottom"]  # in view
        # clicks pass through the ring to the choices drawn on the hex
        assert js(browser, "return getComputedStyle(arguments[0]).pointerEvents;",
                  ring.find_element(By.TAG_NAME, "polygon")) == "none"  # fmt: skip
        # once the attack is resolved or cancelled, the mark goes
        ends = [c["n"] for c in now["choices"] if c["text"] in ("resolve", "cancel")]
        play_by_map(browser, ends[0])
        if not state(browser)["focus"]:
            assert not browser.find_elements(By.CSS_SELECTOR, "#overlay .target")
    finally:
        srv.shutdown()


#: What the page measures of each counter's name lines: the text's box, the counter's
#: box, the line's text and the counter's hover text.
NAME_BOXES = """
return [...document.querySelectorAll('#board g.piece')].flatMap((g) => {
  const counter = g.querySelector('rect.counter').getBoundingClientRect();
  const title = (g.querySelector('title') || {}).textContent || '';
  return [...g.querySelectorAll('text.unit-name')].map((t) => {
    const r = t.getBoundingClientRect();
    return {text: t.textContent, title, left: r.left - counter.left, right: counter.right - r.right,
            top: r.top - counter.top, bottom: counter.bottom - r.bottom, px: r.height};
  });
});
"""


@pytest.mark.parametrize(
    ("game", "scenario", "bots"),
    [
        ("lnl", "beach", {"German": "solitaire"}),
        ("tcs", "e1-draw", {"German": "heuristic"}),
        ("bloody", "solo", {}),
        ("landing_table", "omaha", {}),
    ],
)
def test_counter_names_fit_their_counters_at_the_default_zoom(
    browser: Any, game: str, scenario: str, bots: dict[str, str]
) -> None:
    """Measured in the page at the default zoom: every name line lies inside its counter
    and is at least 9 px high; a name shortened with an ellipsis has its whole name as the
    counter's hover text."""
    srv, url = serve(lambda: Session(game, scenario, seed=3, bots=bots))
    rng = random.Random(3)
    try:
        browser.get(url)
        wait_for_page(browser)
        for moves in range(30):  # into play: units on the map
            now = state(browser)
            plans = [c["n"] for c in now["choices"] if c["plan"]]
            if now["result"] is not None:
                break
            play_by_map(browser, plans[0] if plans and moves > 2 else pick(now, rng, 0.4))
        names = js(browser, NAME_BOXES)
        assert len(names) >= 10
        for n in names:
            assert min(n["left"], n["right"], n["top"], n["bottom"]) >= -1, n
            assert n["px"] >= 9, n
        cut = [n for n in names if n["text"].endswith("…")]
        for n in cut:
            assert n["text"][:-1] in n["title"] and "…" not in n["title"], n
        assert len(cut) <= len(names) // 20, [n["text"] for n in cut]
    finally:
        srv.shutdown()


@pytest.mark.parametrize(("game", "scenario"), [("bloody", "solo"), ("landing_table", "omaha")])
def test_a_solitaire_game_mid_play_by_the_map(browser: Any, game: str, scenario: str) -> None:
    """Bloody Omaha and the Landing Table played by the map and the prompt's buttons
    (never the list) for up to 40 decisions, the prompt in view after each; a screenshot
    after the 15th."""
    srv, url = serve(lambda: Session(game, scenario, seed=2))
    rng = random.Random(2)
    try:
        browser.get(url)
        wait_for_page(browser)
        shot = SHOTS / f"{game}-midplay.png"
        for k in range(40):
            now = state(browser)
            if now["result"] is not None:
                break
            play_by_map(browser, pick(now, rng, 0.3))
            prompt_in_view(browser)
            if k == 14:  # mid-play: a decision pending
                SHOTS.mkdir(parents=True, exist_ok=True)
                browser.save_screenshot(str(shot))
        assert k >= 14 and shot.exists()
        assert js(browser, "return window.omahaFallbackUses();") == 0
    finally:
        srv.shutdown()


#: What the page measures of each text drawn on a cell (the picture's marks and feature
#: tags, the page's choice labels): its box on the screen, its cell's box, and its hover.
CELL_TEXTS = """
const cells = new Map([...document.querySelectorAll('#board polygon.cell')].map(
  (p) => [p, p.getBoundingClientRect()]));
const near = (r) => {
  const x = r.left + r.width / 2, y = r.top + r.height / 2;
  let best = null, d = Infinity;
  for (const [p, b] of cells) {
    const e = (b.left + b.width / 2 - x) ** 2 + (b.top + b.height / 2 - y) ** 2;
    if (e < d) { d = e; best = b; }
  }
  return best;
};
const texts = [...document.querySelectorAll(
  '#board g.marks text, #board text.feature.tag, #overlay .spot text')];
return texts.map((t) => {
  const r = t.getBoundingClientRect(), c = near(r);
  const title = t.parentNode.querySelector(':scope > title') || t.querySelector('title');
  const hover = title ? title.textContent : '';
  return {text: t.textContent, hover, w: r.width, cell: c ? c.width : 0,
          px: parseFloat(getComputedStyle(t).fontSize) * (r.height / t.getBBox().height || 1)};
});
"""
#: The side panel's lines and the board window, on the screen.
PANEL_TEXTS = """
const b = document.getElementById('board').getBoundingClientRect();
return [...document.querySelectorAll('#board g.panel text')].map((t) => {
  const r = t.getBoundingClientRect();
  return {text: t.textContent, left: r.left - b.left, right: b.right - r.right};
});
"""


def check_cell_texts(browser: Any, where: str) -> None:
    """At the default zoom: each cell's text at least 9 px high and no wider than its
    cell; a cut one has its whole text as the hover."""
    texts = js(browser, CELL_TEXTS)
    assert texts, where
    for t in texts:
        if not t["w"]:  # panned out of the window: not drawn on the screen
            continue
        assert t["px"] >= 9, (where, t)
        assert t["w"] <= t["cell"] + 1, (where, t)
        if "…" in t["text"]:
            assert t["text"].split("…")[0] in t["hover"] and "…" not in t["hover"], (where, t)


@pytest.mark.parametrize(
    ("game", "scenario", "bots", "moves"),
    [
        ("lnl", "beach", {"German": "solitaire"}, 40),
        ("tcs", "e1-draw", {"German": "heuristic"}, 40),
        ("bloody", "solo", {}, 15),
        ("landing_table", "omaha", {}, 15),
    ],
)
def test_map_texts_are_legible_and_fit_their_cells_at_set_up_and_mid_play(
    browser: Any, game: str, scenario: str, bots: dict[str, str], moves: int
) -> None:
    """Measured in the page at the default zoom, at set-up and mid-play (by the map):
    every mark, feature tag and choice label legible, within its cell, whole on its hover
    when cut; Bloody Omaha's side panel (tracks, notes) inside the board window. A
    mid-play screenshot goes to SHOTS / "labels"."""
    srv, url = serve(lambda: Session(game, scenario, seed=7, bots=bots))
    rng = random.Random(7)
    try:
        browser.get(url)
        wait_for_page(browser)
        check_cell_texts(browser, f"{game} at set-up")
        for k in range(moves):
            now = state(browser)
            if now["result"] is not None:
                break
            plans = [c["n"] for c in now["choices"] if c["plan"]]
            fire = [c["n"] for c in now["choices"] if c["text"].split()[0] in ("fire", "at")]
            n = plans[0] if plans and k > 2 else fire[0] if fire and rng.random() < 0.5 else None
            play_by_map(browser, n if n is not None else pick(now, rng, 0.3))
        browser.find_element(By.ID, "zoom-home").click()  # the default zoom, on the choices
        check_cell_texts(browser, f"{game} mid-play")
        if game == "bloody":
            panel = js(browser, PANEL_TEXTS)
            assert panel and all(p["left"] >= 0 and p["right"] >= 0 for p in panel), panel
        (SHOTS / "labels").mkdir(parents=True, exist_ok=True)
        browser.save_screenshot(str(SHOTS / "labels" / f"{game}-midplay.png"))
    finally:
        srv.shutdown()
