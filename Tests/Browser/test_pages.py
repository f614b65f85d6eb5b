"""The server's pages in a real browser (headless Chromium at phone size, 375x812).

Run by scripts/browser-test.sh, which starts `jump-forms serve` and `jump-forms preview` and
passes their addresses in the environment:

- JUMP_FORMS_URL: the server (`serve`) with the repository's example flow and a temporary database
- JUMP_FORMS_PREVIEW_URL: the gallery of `jump-forms preview` (its /preview address), run on a
  copy of the example project whose flow is JUMP_FORMS_PREVIEW_FLOW (the test edits it)
- JUMP_FORMS_BIN, JUMP_FORMS_CONFIG, JUMP_FORMS_DB: the binary, jump.yaml and the database
  (the tests read the outbox with `jump-forms outbox`)
- SCREENSHOTS: the folder screenshots are written to, for a person to look at

The pages are driven through the hosted-form DOM contract: `<form id="form-<name>">`, controls
`id="field-<name>"`, their messages `id="field-<name>-error"` (named by `aria-describedby`),
form-level messages in `#form-errors`, the submit button `#submit`.
"""

import json
import os
import re
import subprocess
import time
import unittest
import urllib.parse

from selenium import webdriver
from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException, TimeoutException, WebDriverException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SERVER = os.environ.get("JUMP_FORMS_URL", "").rstrip("/")
PREVIEW = os.environ.get("JUMP_FORMS_PREVIEW_URL", "")
PREVIEW_FLOW = os.environ.get("JUMP_FORMS_PREVIEW_FLOW", "")
BINARY = os.environ.get("JUMP_FORMS_BIN", "")
CONFIG = os.environ.get("JUMP_FORMS_CONFIG", os.path.join(ROOT, "jump.yaml"))
DATABASE = os.environ.get("JUMP_FORMS_DB", "")
SCREENSHOTS = os.environ.get("SCREENSHOTS", os.path.join(ROOT, ".build", "browser-screenshots"))

# What jump.yaml says: the redirect URI the hosted forms send the browser to, and the client.
REDIRECT_URI = "https://example.com/cb"
CLIENT_ID = "localdev0123456789abcdefghijklmn"
RUN = str(int(time.time() * 1000))[-9:]



def staleness_of(element):
    """Waits for `element` to leave the document. Chromium sometimes answers a node of the page
    just left with "Node with given id does not belong to the document" instead of a stale
    element reference: that is gone too."""

    def gone(_driver):
        try:
            element.is_enabled()
            return False
        except StaleElementReferenceException:
            return True
        except WebDriverException as error:
            if "does not belong to the document" in str(error):
                return True
            raise

    return gone

def locale_text(tag, key):
    """A message of locales/<tag>.yaml (flat dotted keys under `messages`), unquoted."""
    with open(os.path.join(ROOT, "locales", tag + ".yaml"), encoding="utf-8") as file:
        for line in file:
            match = re.match(r"\s+" + re.escape(key) + r":\s*(.*?)\s*$", line)
            if match:
                value = match.group(1)
                if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
                    value = value[1:-1]
                return value
    raise AssertionError(f"locales/{tag}.yaml has no {key}")


def form_url(form, locale, **extra):
    query = {"locale": locale, "redirect_uri": REDIRECT_URI, "response_type": "code", "client_id": CLIENT_ID}
    query.update(extra)
    return f"{SERVER}/forms/{form}?{urllib.parse.urlencode(query)}"


class Pages(unittest.TestCase):
    driver = None

    @classmethod
    def setUpClass(cls):
        if not SERVER:
            raise unittest.SkipTest("JUMP_FORMS_URL is not set: run scripts/browser-test.sh")
        os.makedirs(SCREENSHOTS, exist_ok=True)
        options = webdriver.ChromeOptions()
        options.binary_location = os.environ.get("CHROMIUM", "/usr/bin/chromium")
        for argument in [
            "--headless=new",
            "--no-sandbox",
            "--disable-dev-shm-usage",
            "--disable-gpu",
            # Offline: every host but the local server fails at once (the redirect URI's too,
            # whose address is all the tests read).
            "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1",
        ]:
            options.add_argument(argument)
        options.add_experimental_option("mobileEmulation", {"deviceMetrics": {"width": 375, "height": 812, "pixelRatio": 2}})
        service = Service(os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver"))
        cls.driver = webdriver.Chrome(options=options, service=service)
        cls.driver.set_page_load_timeout(20)

    @classmethod
    def tearDownClass(cls):
        if cls.driver:
            cls.driver.quit()

    # MARK: helpers

    def shot(self, name):
        self.driver.save_screenshot(os.path.join(SCREENSHOTS, name + ".png"))

    def open(self, url):
        self.driver.get(url)

    def element(self, element_id):
        try:
            return self.driver.find_element(By.ID, element_id)
        except NoSuchElementException:
            self.shot("missing-" + element_id)
            self.fail(f"no #{element_id} on {self.driver.current_url}:\n{self.driver.page_source[:3000]}")

    def check_page(self, lang, direction):
        html = self.driver.find_element(By.TAG_NAME, "html")
        self.assertEqual(html.get_attribute("lang"), lang, f"<html lang> of {self.driver.current_url}")
        self.assertEqual(html.get_attribute("dir"), direction, f"<html dir> of {self.driver.current_url}")
        viewport = self.driver.find_elements(By.CSS_SELECTOR, 'meta[name="viewport"]')
        self.assertTrue(viewport, f"no viewport meta on {self.driver.current_url}")
        self.assertEqual(viewport[0].get_attribute("content"), "width=device-width, initial-scale=1")
        stylesheet = self.driver.find_elements(By.CSS_SELECTOR, 'link[rel="stylesheet"][href="/assets/jump-forms.css"]')
        self.assertTrue(stylesheet, f"no /assets/jump-forms.css stylesheet on {self.driver.current_url}")
        # Readable at phone width: nothing wider than the screen.
        width = self.driver.execute_script("return document.documentElement.scrollWidth")
        self.assertLessEqual(width, 375 + 1, f"{self.driver.current_url} is {width}px wide at 375px")

    def fill(self, name, value):
        control = self.element("field-" + name)
        if control.tag_name == "select":
            Select(control).select_by_value(value)
        elif control.get_attribute("type") == "checkbox":
            if control.is_selected() != bool(value):
                control.click()
        else:
            control.clear()
            control.send_keys(value)

    def fill_date(self, name, year, month, day):
        for part, value in (("year", year), ("month", month), ("day", day)):
            control = self.element(f"field-{name}-{part}")
            if control.tag_name == "select":
                select = Select(control)
                values = [option.get_attribute("value") for option in select.options]
                select.select_by_value(value if value in values else str(int(value)))
            else:
                control.clear()
                control.send_keys(value)

    def submit(self, button_id="submit"):
        """Clicks the submit button and waits for the next page."""
        page = self.driver.find_element(By.TAG_NAME, "html")
        self.element(button_id).click()
        WebDriverWait(self.driver, 15).until(staleness_of(page))

    def submit_any(self):
        page = self.driver.find_element(By.TAG_NAME, "html")
        self.driver.find_element(By.CSS_SELECTOR, 'button[type="submit"], input[type="submit"]').click()
        WebDriverWait(self.driver, 15).until(staleness_of(page))

    def field_error(self, name):
        control = self.element("field-" + name)
        error_id = "field-" + name + "-error"
        described = (control.get_attribute("aria-describedby") or "").split()
        self.assertIn(error_id, described, f"#field-{name} is not described by #{error_id}")
        self.assertEqual(control.get_attribute("aria-invalid"), "true", f"#field-{name} is not aria-invalid")
        return self.element(error_id).text.strip()

    def wait_for_redirect(self, what):
        try:
            WebDriverWait(self.driver, 15).until(lambda driver: driver.current_url.startswith(REDIRECT_URI))
        except TimeoutException:
            self.shot("no-redirect-" + what)
            self.fail(f"{what}: no redirect to {REDIRECT_URI}; at {self.driver.current_url}:\n{self.driver.page_source[:3000]}")
        query = urllib.parse.parse_qs(urllib.parse.urlparse(self.driver.current_url).query)
        self.assertTrue(query.get("code", [""])[0], f"{what}: no code in {self.driver.current_url}")

    def register(self, locale, email, name, password, confirmation):
        self.open(form_url("registrationForm", locale))
        self.element("form-registrationForm")
        self.fill("emailAddress", email)
        self.fill("displayName", name)
        self.fill("firstName", "Léa")
        self.fill("lastName", "Martin")
        self.fill("newPassword", password)
        self.fill("newPasswordConfirm", confirmation)
        self.fill_date("birthdate", "1990", "04", "01")
        self.submit()

    def sign_in(self, email, password):
        self.open(form_url("signInForm", "en-US"))
        self.fill("signInEmailAddress", email)
        self.fill("currentPassword", password)
        self.submit()

    def outbox_link(self, email):
        """The password-reset link of the newest email to `email` (`jump-forms outbox`)."""
        for _ in range(50):
            result = subprocess.run(
                [BINARY, "outbox", "--config", CONFIG, "--db", DATABASE, "--format", "json"],
                capture_output=True, text=True, timeout=20, check=False)
            self.assertEqual(result.returncode, 0, result.stderr)
            messages = [message for message in json.loads(result.stdout) if message["to"] == email]
            if messages:
                links = re.findall(r"https?://\S+/password/reset\?\S+", messages[-1]["body"])
                self.assertTrue(links, f"no reset link in: {messages[-1]['body']}")
                return links[0]
            time.sleep(0.2)
        self.fail(f"no email to {email} in the outbox")

    # MARK: tests

    def test_1_register_sign_in_and_reset_a_password(self):
        email = f"ana.{RUN}@example.com"
        self.register("en-US", email, f"ana{RUN}", "correct horse battery", "correct horse batteries")
        self.check_page("en-US", "ltr")
        message = self.field_error("newPasswordConfirm")
        self.shot("register-en-US-refused")
        self.assertEqual(message, locale_text("en-US", "validation.passwordsMatch"))
        # The values typed stay; the passwords are typed again.
        self.assertEqual(self.element("field-emailAddress").get_attribute("value"), email)
        self.fill("newPassword", "correct horse battery")
        self.fill("newPasswordConfirm", "correct horse battery")
        self.fill_date("birthdate", "1990", "04", "01")
        self.submit()
        self.wait_for_redirect("registration")

        # The same address again: the browser accepts it, the server refuses it.
        self.register("en-US", email, f"bo{RUN}", "correct horse battery", "correct horse battery")
        self.assertEqual(self.field_error("emailAddress"), locale_text("en-US", "validation.emailTaken"))
        self.shot("register-en-US-taken")

        self.sign_in(email, "correct horse battery")
        self.wait_for_redirect("sign-in")

        self.open(form_url("forgotPasswordForm", "en-US"))
        self.check_page("en-US", "ltr")
        self.fill("signInEmailAddress", email)
        self.submit()
        self.shot("forgot-password-sent")
        self.open(self.outbox_link(email))
        self.check_page("en-US", "ltr")
        self.shot("reset-page")
        for control in self.driver.find_elements(By.CSS_SELECTOR, 'input[type="password"]'):
            control.send_keys("a brand new passphrase")
        self.submit_any()
        self.shot("reset-done")
        self.assertFalse(self.driver.find_elements(By.CSS_SELECTOR, 'input[type="password"]'), "the reset page asks again")

        self.sign_in(email, "a brand new passphrase")
        self.wait_for_redirect("sign-in with the new password")

    def test_2_register_in_french(self):
        email = f"lea.{RUN}@example.com"
        self.register("fr-FR", email, f"lea{RUN}", "cheval correct batterie", "cheval correct")
        self.check_page("fr-FR", "ltr")
        self.shot("register-fr-FR-refused")
        message = self.field_error("newPasswordConfirm")
        self.assertEqual(message, locale_text("fr-FR", "validation.passwordsMatch"))
        self.assertNotEqual(message, locale_text("en-US", "validation.passwordsMatch"))
        label = self.driver.find_element(By.CSS_SELECTOR, 'label[for="field-emailAddress"]').text
        self.assertIn("Adresse e-mail", label, "the label is not fr-FR.yaml's fields.emailAddress.label")
        self.fill("newPassword", "cheval correct batterie")
        self.fill("newPasswordConfirm", "cheval correct batterie")
        self.fill_date("birthdate", "1990", "04", "01")
        self.submit()
        self.wait_for_redirect("registration in fr-FR")

    def test_3_an_arabic_page_is_right_to_left(self):
        self.open(form_url("signInForm", "ar"))
        direction = self.driver.find_element(By.TAG_NAME, "html").get_attribute("dir")
        self.shot("sign-in-ar")
        self.assertEqual(direction, "rtl", "the ar page is not right-to-left")
        self.element("form-signInForm")
        self.element("field-signInEmailAddress")

    def test_4_the_engage_dialog_chooses_an_identity(self):
        self.open(f"{SERVER}/google/start")
        self.shot("engage-chooser")
        page = self.driver.page_source
        self.assertIn("marta", self.driver.find_element(By.TAG_NAME, "body").text.lower(), "the chooser does not name Marta Keller")
        self.assertIn("marta.keller@example.com", page, "the chooser does not show the identity's email")
        links = [link for link in self.driver.find_elements(By.CSS_SELECTOR, "a[href]") if "marta" in (link.text + link.get_attribute("href")).lower()]
        if not links:
            links = [button for button in self.driver.find_elements(By.CSS_SELECTOR, "button") if "marta" in button.text.lower()]
        self.assertTrue(links, f"no way to choose Marta on:\n{page[:3000]}")
        old = self.driver.find_element(By.TAG_NAME, "html")
        links[0].click()
        WebDriverWait(self.driver, 15).until(staleness_of(old))
        WebDriverWait(self.driver, 15).until(lambda driver: "/signin/complete" in driver.current_url)
        self.shot("engage-complete")
        self.assertIn("token=", self.driver.current_url)

    def test_5_the_preview_gallery_shows_its_forms(self):
        if not PREVIEW:
            self.skipTest("JUMP_FORMS_PREVIEW_URL is not set")
        self.open(PREVIEW)
        frames = self.driver.find_elements(By.TAG_NAME, "iframe")
        self.shot("preview-gallery")
        # 7 forms in 6 locales and 2 pseudo-locales.
        self.assertEqual(len(frames), 7 * 8, "the gallery does not show every form in every locale")
        sources = [frame.get_attribute("src") for frame in frames]
        self.assertTrue(all("/forms/" in source and "preview=1" in source for source in sources), sources[:3])
        self.assertTrue(any("locale=ar-XB" in source for source in sources))
        self.driver.switch_to.frame(frames[0])
        try:
            WebDriverWait(self.driver, 10).until(lambda driver: driver.find_elements(By.CSS_SELECTOR, "form[id^='form-']"))
        except TimeoutException:
            self.fail(f"the first iframe ({sources[0]}) shows no form:\n{self.driver.page_source[:2000]}")
        finally:
            self.driver.switch_to.default_content()

    def test_6_the_preview_gallery_reloads_on_a_flow_edit(self):
        if not PREVIEW or not PREVIEW_FLOW:
            self.skipTest("JUMP_FORMS_PREVIEW_URL and JUMP_FORMS_PREVIEW_FLOW are not set")
        self.open(PREVIEW)
        generation = self.driver.find_element(By.TAG_NAME, "body").get_attribute("data-generation")
        with open(PREVIEW_FLOW, encoding="utf-8") as file:
            text = file.read()
        edited = text.replace("  forgotPasswordForm:\n", "  newsletterForm:\n    fields: [emailAddress, optIn]\n  forgotPasswordForm:\n", 1)
        self.assertNotEqual(edited, text, "the flow has no forgotPasswordForm to put a form before")
        with open(PREVIEW_FLOW, "w", encoding="utf-8") as file:
            file.write(edited)

        # One script reads the attribute, so the reload cannot swap the body out between finding it
        # and reading it (a stale element reference).
        def reloaded(driver):
            current = driver.execute_script("return document.body && document.body.getAttribute('data-generation')")
            return current not in (None, generation)

        try:
            WebDriverWait(self.driver, 15).until(reloaded)
        except TimeoutException:
            self.fail("the gallery did not reload after the flow changed")
        self.shot("preview-reloaded")
        sources = self.driver.execute_script("return Array.from(document.querySelectorAll('iframe'), frame => frame.src)")
        self.assertTrue(any("/forms/newsletterForm?" in source for source in sources), "the new form is not in the gallery")

    def test_7_the_preview_gallery_finishes_loading_and_fits_a_phone(self):
        if not PREVIEW:
            self.skipTest("JUMP_FORMS_PREVIEW_URL is not set")
        started = time.monotonic()
        try:
            self.open(PREVIEW)  # returns at the load event: the long poll must not hold it
        except TimeoutException:
            self.fail("/preview did not finish loading: its long poll holds the load event")
        elapsed = time.monotonic() - started
        self.assertEqual(self.driver.execute_script("return document.readyState"), "complete")
        self.assertLess(elapsed, 10, f"/preview took {elapsed:.1f}s to load")
        self.shot("preview-phone")
        width = self.driver.execute_script("return document.documentElement.scrollWidth")
        self.assertLessEqual(width, 375 + 1, f"the gallery is {width}px wide at 375px")
        # The first frame shows whole: its right edge (border included) is inside its row's
        # visible box, which the row scrolls sideways (a content-box frame overhung it by 2px).
        frame = self.driver.find_elements(By.TAG_NAME, "iframe")[0]
        right, visible = self.driver.execute_script(
            """const frame = arguments[0], row = frame.closest('.locales'), box = row.getBoundingClientRect();
            return [frame.getBoundingClientRect().right, box.left + row.clientLeft + row.clientWidth];""", frame)
        self.assertLessEqual(right, visible + 0.5, f"the first frame ends at {right}px, its row shows up to {visible}px: clipped")

    def test_8_a_german_date_field_is_day_month_name_year(self):
        self.open(form_url("registrationForm", "de-DE"))
        self.check_page("de-DE", "ltr")
        parts = self.driver.find_elements(By.CSS_SELECTOR, "#field-birthdate-row .date select, #field-birthdate-row .date input")
        self.assertEqual([part.get_attribute("id") for part in parts], ["field-birthdate-day", "field-birthdate-month", "field-birthdate-year"])
        month = Select(self.element("field-birthdate-month"))
        self.assertEqual([option.text for option in month.options][1:4], ["Januar", "Februar", "März"])
        for part, word in (("day", "Tag"), ("month", "Monat"), ("year", "Jahr")):
            label = self.driver.find_element(By.CSS_SELECTOR, f'label[for="field-birthdate-{part}"]')
            self.assertTrue(label.is_displayed(), f"the {part} label is hidden")
            self.assertEqual(label.text, word)
        self.shot("date-de-DE")
        # 31 February: the message says so, and every part is marked.
        self.fill("emailAddress", f"jonas.{RUN}@example.com")
        self.fill("displayName", f"jonas{RUN}")
        self.fill("firstName", "Jonas")
        self.fill("lastName", "Weber")
        self.fill("newPassword", "richtiges pferd batterie")
        self.fill("newPasswordConfirm", "richtiges pferd batterie")
        self.fill_date("birthdate", "1990", "2", "31")
        self.submit()
        self.shot("date-de-DE-refused")
        message = self.element("field-birthdate-error").text.strip()
        self.assertIn("Dieses Datum gibt es nicht.", message)
        plain = self.element("field-firstName").value_of_css_property("border-top-color")
        for part in ("day", "month", "year"):
            control = self.element(f"field-birthdate-{part}")
            self.assertEqual(control.get_attribute("aria-invalid"), "true", f"the {part} is not marked")
            # Marked where it shows, the year's number input too.
            self.assertNotEqual(control.value_of_css_property("border-top-color"), plain, f"the {part}'s border is not marked")


if __name__ == "__main__":
    unittest.main(verbosity=2)
