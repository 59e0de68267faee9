"""The review queue in a real browser: Debian's chromium and chromium-driver, via selenium.

The app runs under uvicorn on loopback over Postgres and the in-process worker with the
demo's jobs (one accepted, one escalated). The test opens the queue, opens the escalated
job, approves it with the keyboard shortcut and sees the job accepted and ``on_pass`` fire.
With ``SCOREGATE_SCREENSHOTS=DIR`` the jobs are scored by the real models and the queue
and job pages are saved as ``DIR/review-queue.png`` and ``DIR/review-job.png``.
"""

from __future__ import annotations

import io
import os
import shutil
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from scoregate.cli.demo import RECIPE_DRAFTS
from scoregate.server import create_app
from scoregate.server.demo import demo_service
from scoregate.storage import db
from tests.conftest import require_service
from tests.fakes import FakeModels
from tests.integration.conftest import fresh_database

pytestmark = [pytest.mark.integration, pytest.mark.browser]

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
DRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"
SHOTS = os.environ.get("SCOREGATE_SCREENSHOTS")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def server() -> Iterator[dict[str, Any]]:
    import uvicorn

    url = fresh_database("scoregate_review_browser")
    out = io.StringIO()
    # Fake model scores (the reward track is real): the recipe's later drafts pass, the
    # summary keeps quoting prices, fails its hard constraint and is escalated.
    models = None if SHOTS else FakeModels(dict.fromkeys(RECIPE_DRAFTS, 0.95), default=0.9)
    service, ids = demo_service(Console(file=out, width=200), database_url=url, models=models)
    port = _free_port()
    config = uvicorn.Config(create_app(service), host="127.0.0.1", port=port, log_level="warning")
    uv = uvicorn.Server(config)
    thread = threading.Thread(target=uv.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not uv.started and time.monotonic() < deadline:
        time.sleep(0.05)
    assert uv.started, "uvicorn did not start in 30 s"
    yield {"base": f"http://127.0.0.1:{port}", "ids": ids, "out": out, "service": service}
    uv.should_exit = True
    thread.join(timeout=10)
    db.get_engine(url).dispose()


@pytest.fixture
def browser() -> Iterator[Any]:
    try:
        from selenium import webdriver
    except ImportError as exc:
        require_service("selenium", exc)
    if not (os.path.exists(CHROMIUM) and os.path.exists(DRIVER)):
        require_service("chromium", FileNotFoundError("apt-get install chromium chromium-driver"))
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu"):
        options.add_argument(arg)
    options.add_argument("--window-size=1280,1400")
    driver = webdriver.Chrome(options=options, service=webdriver.ChromeService(DRIVER))
    driver.implicitly_wait(5)
    yield driver
    driver.quit()


def _shoot(driver: Any, name: str, tmp: Path) -> None:
    target = Path(SHOTS) if SHOTS else tmp
    target.mkdir(parents=True, exist_ok=True)
    height = driver.execute_script("return document.body.scrollHeight")
    driver.set_window_size(1280, min(max(int(height) + 40, 600), 4000))
    driver.execute_script("window.scrollTo(0, 0)")
    assert driver.save_screenshot(str(target / name))


def test_reviewer_approves_an_escalated_job_in_the_browser(server, browser, tmp_path):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    accepted, waiting = server["ids"]
    assert server["service"].status_of(waiting) == "escalated"
    browser.get(server["base"] + "/review")
    links = browser.find_elements(By.CSS_SELECTOR, "a.job-link")
    assert [a.get_attribute("href").rsplit("/", 1)[1] for a in links] == [waiting]
    _shoot(browser, "review-queue.png", tmp_path)

    links[0].click()
    assert browser.find_element(By.ID, "job-status").text == "escalated"
    assert (
        browser.find_element(By.CSS_SELECTOR, ".chart img")
        .get_attribute("src")
        .startswith("data:image/png;base64,")
    )
    assert browser.find_elements(By.CSS_SELECTOR, "pre.diff ins")
    assert "no prices" in browser.find_element(By.CSS_SELECTOR, "ul.failed").text
    browser.find_element(By.NAME, "note").send_keys("prices are public already")
    _shoot(browser, "review-job.png", tmp_path)

    browser.find_element(By.TAG_NAME, "body").click()  # leave the note field
    browser.find_element(By.TAG_NAME, "body").send_keys("a")  # the approve shortcut picks...
    time.sleep(0.5)
    assert server["service"].status_of(waiting) == "escalated"  # ...and records nothing yet
    assert "Press Enter to approve" in browser.find_element(By.ID, "shortcut-hint").text
    browser.find_element(By.TAG_NAME, "body").send_keys(Keys.ENTER)  # Enter confirms
    deadline = time.monotonic() + 15
    while "done=approve" not in browser.current_url and time.monotonic() < deadline:
        time.sleep(0.1)
    assert browser.find_element(By.ID, "job-status").text == "accepted"
    assert "Recorded: approve" in browser.find_element(By.ID, "done").text
    assert f"on_pass fired: job {waiting}" in server["out"].getvalue()
    job = server["service"].job(waiting)
    assert job["decisions"][-1]["action"] == "approve"
    assert job["decisions"][-1]["rationale"] == "prices are public already"
    browser.get(server["base"] + "/review")
    assert browser.find_elements(By.CSS_SELECTOR, "a.job-link") == []
    assert accepted not in browser.page_source
