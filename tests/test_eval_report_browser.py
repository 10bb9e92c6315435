"""The report's episode viewer in a real browser: headless Chromium (Debian's chromium and chromium-driver
packages, driven by Selenium) opens report.html of an eval of 2 domains × 2 agents, without console errors;
the coverage table's cells filter the list; an episode opens with a picture per state and its failed steps
marked; screenshots are taken and checked. No network: the page is a local file."""

from __future__ import annotations

import io
import shutil
import subprocess

import pytest

from apb.cli import main
from apb.eval.report import write_report

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")
SCRIPT = ["(unstack block_b block_d)", "(stack block_a block_c)", "(sail loc_0 loc_1)", "I fly away"] * 40


def _browser(tmp_path):
    assert CHROMIUM and DRIVER, ("the browser test needs Debian's chromium and chromium-driver: "
                                 "apt-get install -y chromium chromium-driver (.ci/run installs them)")
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage",
                 f"--user-data-dir={tmp_path / 'chromium-profile'}", "--window-size=1400,1000"):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service(DRIVER, log_output=subprocess.DEVNULL), options=options)


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    root = tmp_path_factory.mktemp("browser")
    script = root / "script.txt"
    script.write_text("\n---\n".join(SCRIPT), encoding="utf-8")
    run = root / "run"
    code = main(["eval", "--domains", "blocksworld,ferry", "--agents", "bfs,act", "--llm", f"scripted:{script}",
                 "--problems", "1", "--seeds", "1", "--max-steps", "12", "--cache", "off", "--out", str(run)])
    assert code == 0
    return write_report([run], root / "report")["report.html"]


def _non_blank(png: bytes) -> int:
    from PIL import Image  # in the dev extra (through moviepy)

    image = Image.open(io.BytesIO(png)).convert("RGB")
    return len(image.getcolors(maxcolors=1 << 20) or [])


def test_report_viewer_in_headless_chromium(report, tmp_path):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as ready
    from selenium.webdriver.support.ui import Select, WebDriverWait

    driver = _browser(tmp_path)
    try:
        driver.get(report.as_uri())
        rows = driver.find_elements(By.CSS_SELECTOR, "#episode-list tbody tr")
        assert len(rows) == 4  # 2 domains × 2 agents, 1 problem, 1 seed
        assert "4 of 4 episodes" in driver.find_element(By.ID, "f-count").text
        # a coverage cell links to its episodes: the list is filtered to that domain and agent
        driver.find_element(By.CSS_SELECTOR, "a.cell[href*='domain=ferry'][href*='agent=act']").click()
        WebDriverWait(driver, 10).until(lambda d: "1 of 4 episodes" in d.find_element(By.ID, "f-count").text)
        visible = [r for r in rows if r.is_displayed()]
        assert len(visible) == 1 and "Ferry" in visible[0].text and "Act" in visible[0].text
        Select(driver.find_element(By.ID, "f-outcome")).select_by_visible_text("solved")
        assert "0 of 4 episodes" in driver.find_element(By.ID, "f-count").text  # act solved nothing
        Select(driver.find_element(By.ID, "f-agent")).select_by_value("")
        Select(driver.find_element(By.ID, "f-domain")).select_by_value("")
        Select(driver.find_element(By.ID, "f-outcome")).select_by_value("")
        assert "4 of 4 episodes" in driver.find_element(By.ID, "f-count").text
        # open the act episode on blocksworld: every state has a picture, the failed steps are marked
        row = next(r for r in rows if "Blocksworld" in r.text and "Act" in r.text)
        taken = int(row.find_elements(By.TAG_NAME, "td")[6].text)
        assert taken >= 3
        row.click()
        WebDriverWait(driver, 10).until(ready.presence_of_element_located((By.CSS_SELECTOR, "table.episode-steps")))
        steps = driver.find_elements(By.CSS_SELECTOR, "table.episode-steps tr.step")
        pictures = driver.find_elements(By.CSS_SELECTOR, "table.episode-steps .picture svg")
        assert len(steps) == len(pictures) == taken + 1  # the initial state and one per step
        failed = driver.find_elements(By.CSS_SELECTOR, "table.episode-steps tr.invalid")
        assert failed and "invalid" in failed[0].text and "FAILED" in failed[0].get_attribute("innerHTML")
        assert driver.find_elements(By.CSS_SELECTOR, "tr.first-failure")
        assert "stack block_a block_c" in driver.find_element(By.ID, "episode-view").text
        shot = tmp_path / "report-episode.png"
        assert driver.save_screenshot(str(shot))
        assert _non_blank(shot.read_bytes()) > 20
        picture = pictures[2].screenshot_as_png
        (tmp_path / "report-picture.png").write_bytes(picture)
        assert _non_blank(picture) > 5  # the picture is drawn, not an empty box
        # the open episode's address links to it (#episode/<id>), and step 0 starts with the facts that change
        link = driver.execute_script("return location.hash")
        assert link.startswith("#episode/") and "blocksworld" in link
        first = driver.find_element(By.CSS_SELECTOR, "table.episode-steps tr.step .changing").text
        assert "Facts that change in this episode" in first and "(on block_" in first
        driver.get(report.as_uri() + "#episode/" + link[len("#episode/"):])  # a fresh page opened on that link
        WebDriverWait(driver, 10).until(ready.presence_of_element_located((By.CSS_SELECTOR, "table.episode-steps")))
        title = driver.find_element(By.ID, "episode-title").text
        assert "Blocksworld" in title and "Act" in title
        assert "4 of 4 episodes" in driver.find_element(By.ID, "f-count").text
        errors = [entry for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]
        assert not errors, errors
    finally:
        driver.quit()
