#!/usr/bin/env python3
"""Computes refresh-signature test vectors outside Swift, with Python's hmac module.

signature = Base64(HMAC-SHA1(key: refresh_secret, message: "refresh_access_token\n<date>\n<access_token>\n"))

Writes Tests/JumpCaptureTests/Fixtures/refresh-signature-vectors.json. The inputs are fixed
(not random) so the file only changes when this script does.
"""
import base64, hashlib, hmac, json, os

cases = [
    ("0123456789abcdef0123456789abcdef01234567", "2024-01-15 10:30:00", "abc123accesstoken"),
    ("ffffffffffffffffffffffffffffffffffffffff", "1999-12-31 23:59:59", "t"),
    ("a1b2c3d4e5f60718293a4b5c6d7e8f9012345678", "2026-11-22 00:00:00", "x" * 64),
    ("0000000000000000000000000000000000000000", "2000-02-29 12:00:00", "token/with+base64=chars"),
    ("9f86d081884c7d659a2feaa0c55ad015a3bf4f1b", "2038-01-19 03:14:08", "ünïcødé-token-✓"),
]
vectors = []
for secret, date, token in cases:
    message = f"refresh_access_token\n{date}\n{token}\n".encode("utf-8")
    digest = hmac.new(secret.encode("ascii"), message, hashlib.sha1).digest()
    vectors.append({"refreshSecret": secret, "date": date, "accessToken": token,
                    "signature": base64.b64encode(digest).decode("ascii")})
out = os.path.join(os.path.dirname(__file__), "..", "Tests", "JumpCaptureTests", "Fixtures", "refresh-signature-vectors.json")
with open(out, "w", encoding="utf-8") as f:
    json.dump({"generatedBy": "scripts/refresh-signature-vectors.py (Python hmac + hashlib.sha1)", "vectors": vectors}, f, indent=2, ensure_ascii=False)
    f.write("\n")
print("wrote", os.path.normpath(out))
