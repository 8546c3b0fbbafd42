"""``omaha serve`` in real headless browsers (Chromium through Selenium): clicks on
the board and the buttons, undo, save and load, a whole LnL game clicked to the
end against the solitaire German, two browsers playing two games at once, and two
playing one game by invitation. Skipped where Selenium or Chromium is missing;
``.ci/run`` installs both."""

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
from selenium.common.exceptions import StaleElementReferenceException  # noqa: E402
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
    "--window-size=1500,1000",
)  # fmt: skip


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
    """Click the button of choice ``n`` and wait until the page shows the next position."""
    before = renders(browser)
    browser.find_element(By.CSS_SELECTOR, f'#choices button[data-n="{n}"]').click()
    WebDriverWait(browser, 30).until(lambda d: renders(d) > before)
    assert not browser.find_element(By.ID, "error").text


def test_click_a_hex_to_narrow_then_play_undo_save_and_replay(browser: Any, tmp_path: Path) -> None:
    srv, url = serve(lambda: Session("lnl", seed=5, bots={"German": "solitaire"}))
    try:
        browser.get(url)
        wait_for_page(browser)
        everything = len(browser.find_elements(By.CSS_SELECTOR, "#choices button"))
        # the first choice naming a hex (a whole set-up plan, offered first, names none)
        first = next(c for c in state(browser)["choices"] if c["cells"])
        cell = first["cells"][0]
        browser.find_element(By.CSS_SELECTOR, f'polygon[data-cell="{cell}"]').click()
        narrowed = browser.find_elements(By.CSS_SELECTOR, "#choices button")
        assert 0 < len(narrowed) < everything
        assert all(cell in b.text for b in narrowed)
        browser.find_element(By.ID, "show-all").click()
        assert len(browser.find_elements(By.CSS_SELECTOR, "#choices button")) == everything
        for _ in range(5):  # five placements (choice 1 is the whole set-up plan while offered)
            click_choice(browser, 2)
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
            assert loaded["choices"] == undone["choices"]
        finally:
            srv2.shutdown()
        browser.save_screenshot(str(tmp_path / "lnl-board.png"))
    finally:
        srv.shutdown()


def test_a_whole_lnl_game_clicked_to_the_end_against_the_solitaire_german(browser: Any) -> None:
    srv, url = serve(lambda: Session("lnl", seed=7, bots={"German": "solitaire"}))
    rng = random.Random(7)
    try:
        browser.get(url)
        wait_for_page(browser)
        clicks = 0
        while state(browser)["result"] is None:
            choices = state(browser)["choices"]
            # mostly end the phase (keeps the game short), otherwise any choice
            ends = [c["n"] for c in choices if c["text"].startswith("end")]
            n = ends[0] if ends and rng.random() < 0.7 else rng.choice(choices)["n"]
            try:
                click_choice(browser, n)
            except StaleElementReferenceException:
                continue
            clicks += 1
            assert clicks < 3000
        assert table_of(srv, browser).session.state.is_terminal()
        assert browser.find_element(By.ID, "result").text.startswith("Game over")
    finally:
        srv.shutdown()


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
        assert "view: German" in second.find_element(By.ID, "board").text
        assert "view: US" in browser.find_element(By.ID, "board").text
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
