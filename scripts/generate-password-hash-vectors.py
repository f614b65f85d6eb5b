#!/usr/bin/python3
"""Writes Tests/JumpCaptureServerTests/Fixtures/password-hash-vectors.json: for every password
type Capture imports (docs/local-server.md, "Imported password hashes"), stored values made by an
implementation independent of the server's, with the password that matches and one that does not.
The committed JSON drives PasswordSchemeVectorTests, so the tests need no Python.

Run from the repository root with Debian's passlib (`apt-get install python3-passlib`, 1.7.4):

    /usr/bin/python3 scripts/generate-password-hash-vectors.py

Hashes are made with passlib where it has the scheme; the two forms it lacks are made here from
their published definitions with hashlib: Drupal 7's `$S$` (sha512, truncated to 55 characters)
and the salted MD5 forms with a separate `salt` key (Janrain's dataload README). Rounds are kept
low so that the tests are fast (bcrypt cost 4, SHA-crypt 1000, PBKDF2 1000, phpass 2^7).
Salts are random: a run rewrites every value (all of them still verify).
"""
import base64
import hashlib
import json
import os
import sys

import passlib
from passlib import hash as ph

PASSWORDS = [
    "password",
    "correct horse battery staple",
    "pässwörd ☃ 日本語",
    " ",
    "0",
    "A" * 72 + "one",
]

ITOA64 = "./0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"


def wrong(password):
    """A password that differs in its first character (DES crypt reads only the first 8)."""
    return ("Z" if password[0] != "Z" else "Y") + password[1:]


def drupal_encode(data):
    """Drupal 7's _password_base64_encode."""
    out, i, count = "", 0, len(data)
    while True:
        value = data[i]
        i += 1
        out += ITOA64[value & 0x3F]
        if i < count:
            value |= data[i] << 8
        out += ITOA64[(value >> 6) & 0x3F]
        if i >= count:
            break
        i += 1
        if i < count:
            value |= data[i] << 16
        out += ITOA64[(value >> 12) & 0x3F]
        if i >= count:
            break
        i += 1
        out += ITOA64[(value >> 18) & 0x3F]
        if i >= count:
            break
    return out


def drupal_sha512(password, count_log2=7, md5_first=False):
    """Drupal 7's _password_crypt('sha512', ...): `$S$`, truncated to 55 characters; with
    `md5_first`, the `U$S$` form of a hash upgraded from an MD5 hex digest."""
    secret = password.encode("utf-8")
    if md5_first:
        secret = hashlib.md5(secret).hexdigest().encode()
    salt = "".join(ITOA64[b & 0x3F] for b in os.urandom(8))
    setting = "$S$" + ITOA64[count_log2] + salt
    digest = hashlib.sha512(salt.encode() + secret).digest()
    for _ in range(1 << count_log2):
        digest = hashlib.sha512(digest + secret).digest()
    value = (setting + drupal_encode(digest))[:55]
    return ("U" + value) if md5_first else value


def salted_md5(password, left, layout):
    salt = base64.b64encode(os.urandom(6)).decode()[:8]
    secret = password.encode("utf-8")
    digest = hashlib.md5((salt.encode() + secret) if left else (secret + salt.encode())).digest()
    if layout == "joined":
        return {"value": base64.b64encode(digest + salt.encode()).decode()}
    if layout == "hex":
        return {"value": digest.hex(), "salt": salt}
    return {"value": base64.b64encode(digest).decode(), "salt": salt}


def vectors():
    out = []

    def add(type_name, form, make):
        for password in PASSWORDS:
            made = make(password)
            entry = made if isinstance(made, dict) else {"value": made}
            out.append({"type": type_name, "form": form, "password": password, "wrong": wrong(password), **entry})

    for ident in ["2a", "2b", "2y"]:
        add("password-bcrypt", "$" + ident + "$ (passlib bcrypt)", lambda p, i=ident: ph.bcrypt.using(rounds=4, ident=i).hash(p))
    add("password-crypt-sha256", "$5$rounds= (passlib sha256_crypt)", lambda p: ph.sha256_crypt.using(rounds=1000).hash(p))
    add("password-crypt-sha256", "$5$ default rounds (passlib sha256_crypt)", lambda p: ph.sha256_crypt.using(rounds=5000).hash(p).replace("rounds=5000$", ""))
    add("password-crypt-sha512", "$6$rounds= (passlib sha512_crypt)", lambda p: ph.sha512_crypt.using(rounds=1000).hash(p))
    add("password-crypt-md5", "$1$ (passlib md5_crypt)", lambda p: ph.md5_crypt.hash(p))
    add("password-crypt-des", "13 characters (passlib des_crypt)", lambda p: ph.des_crypt.hash(p))
    add("password-md5", "hex (passlib hex_md5)", lambda p: ph.hex_md5.hash(p))
    add("password-md5", "upper-case hex (hashlib)", lambda p: hashlib.md5(p.encode()).hexdigest().upper())
    add("password-md5", "base64 (hashlib)", lambda p: base64.b64encode(hashlib.md5(p.encode()).digest()).decode())
    add("password-sha", "hex (passlib hex_sha1)", lambda p: ph.hex_sha1.hash(p))
    add("password-sha-256", "hex (passlib hex_sha256)", lambda p: ph.hex_sha256.hash(p))
    add("password-sha-512", "hex (passlib hex_sha512)", lambda p: ph.hex_sha512.hash(p))
    add("password-sha-512", "base64 (hashlib)", lambda p: base64.b64encode(hashlib.sha512(p.encode()).digest()).decode())
    add("password-md5-salted-right-base64", "{SMD5} (passlib ldap_salted_md5)", lambda p: ph.ldap_salted_md5.hash(p))
    add("password-md5-salted-right-base64", "base64(md5(password+salt)+salt) (passlib ldap_salted_md5, no prefix)",
        lambda p: ph.ldap_salted_md5.hash(p)[len("{SMD5}"):])
    add("password-md5-salted-right-base64", "salt key, base64 digest (hashlib)", lambda p: salted_md5(p, False, "base64"))
    add("password-md5-salted-right-base64", "salt key, hex digest (hashlib)", lambda p: salted_md5(p, False, "hex"))
    add("password-md5-salted-left-base64", "base64(md5(salt+password)+salt) (hashlib)", lambda p: salted_md5(p, True, "joined"))
    add("password-md5-salted-left-base64", "salt key, base64 digest (hashlib)", lambda p: salted_md5(p, True, "base64"))
    add("password-md5-salted-left-base64", "salt key, hex digest (hashlib)", lambda p: salted_md5(p, True, "hex"))
    add("password-pbkdf2-sha1", "$pbkdf2$ (passlib pbkdf2_sha1)", lambda p: ph.pbkdf2_sha1.using(rounds=1000).hash(p))
    add("password-pbkdf2-sha1", "pbkdf2_sha1$ (passlib django_pbkdf2_sha1)", lambda p: ph.django_pbkdf2_sha1.using(rounds=1000).hash(p))
    add("password-pbkdf2-sha256", "$pbkdf2-sha256$ (passlib pbkdf2_sha256)", lambda p: ph.pbkdf2_sha256.using(rounds=1000).hash(p))
    add("password-pbkdf2-sha256", "pbkdf2_sha256$ (passlib django_pbkdf2_sha256)", lambda p: ph.django_pbkdf2_sha256.using(rounds=1000).hash(p))
    add("password-pbkdf2-sha512", "$pbkdf2-sha512$ (passlib pbkdf2_sha512)", lambda p: ph.pbkdf2_sha512.using(rounds=1000).hash(p))
    add("password-phpass-55", "$P$ (passlib phpass)", lambda p: ph.phpass.using(rounds=7).hash(p))
    add("password-phpass-55", "$H$ (passlib phpass)", lambda p: ph.phpass.using(rounds=7, ident="H").hash(p))
    add("password-phpass-sha512-truncated-55", "$S$ (Drupal 7, hashlib)", lambda p: drupal_sha512(p))
    add("password-phpass-sha512-truncated-55", "U$S$ (Drupal 7 over an MD5 hex digest, hashlib)", lambda p: drupal_sha512(p, md5_first=True))
    return out


def check(entries):
    """Every vector verifies with passlib where passlib reads it (and its wrong password does not)."""
    readers = {
        "password-bcrypt": ph.bcrypt, "password-crypt-sha256": ph.sha256_crypt, "password-crypt-sha512": ph.sha512_crypt,
        "password-crypt-md5": ph.md5_crypt, "password-crypt-des": ph.des_crypt, "password-sha-256": ph.hex_sha256,
    }
    for entry in entries:
        reader = readers.get(entry["type"])
        if reader is None or (entry["type"] == "password-crypt-sha256" and "rounds" not in entry["value"]):
            continue
        assert reader.verify(entry["password"], entry["value"]), entry
        assert not reader.verify(entry["wrong"], entry["value"]), entry


def main():
    entries = vectors()
    check(entries)
    document = {
        "generator": "scripts/generate-password-hash-vectors.py, passlib " + passlib.__version__ + ", Python " + sys.version.split()[0],
        "vectors": entries,
    }
    path = "Tests/JumpCaptureServerTests/Fixtures/password-hash-vectors.json"
    with open(path, "w", encoding="utf-8") as file:
        json.dump(document, file, ensure_ascii=False, indent=1)
        file.write("\n")
    print(f"{path}: {len(entries)} vectors")


if __name__ == "__main__":
    main()
