"""``omaha serve`` in a real headless browser (Chromium through Selenium): clicks on
the board and the buttons, undo, save and load, and a whole LnL game clicked to the
end against the solitaire German. Skipped where Selenium or Chromium is missing;
``.ci/run`` installs both."""

from __future__ import annotations

import json
import random
import shutil
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

webdriver = pytest.importorskip("selenium.webdriver")
from selenium.common.exceptions import StaleElementReferenceException  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

from omaha.server import make_server  # noqa: E402
from omaha.session import Session  # noqa: E402

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")
pytestmark = pytest.mark.skipif(not (CHROMIUM and DRIVER), reason="chromium/chromedriver missing")
FLAGS = (
    "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--window-size=1500,1000",
)  # fmt: skip


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
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
    yield driver
    driver.quit()


def serve(session: Session) -> tuple[Any, str]:
    srv = make_server(session, port=0)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    host, port = srv.server_address[:2]
    return srv, f"http://{host!s}:{port}/"


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
    srv, url = serve(Session("lnl", seed=5, bots={"German": "solitaire"}))
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
        assert record["game"] == "lnl" and len(record["actions"]) == len(srv.session.state.actions)
        # replay the saved record in a fresh server: the same position
        srv2, url2 = serve(Session("bloody", seed=1))
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
    srv, url = serve(Session("lnl", seed=7, bots={"German": "solitaire"}))
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
        assert srv.session.state.is_terminal()
        assert browser.find_element(By.ID, "result").text.startswith("Game over")
    finally:
        srv.shutdown()
