"""Schemathesis hooks for the contract fuzzer (test/contract-fuzz/schemathesis.toml loads this file).

Reviewed exception, cookies: a generated cookie value is dropped when it holds a character no cookie
value can carry on the wire (RFC 6265 cookie-octets: printable ASCII but space, DQUOTE, comma,
semicolon and backslash). Schemathesis keeps to those characters for valid data, but its values that
break a `maxLength` may carry a `;` or whitespace: `cs_session=<1,025 characters with a ; inside>`
then arrives as a short `cs_session` and another, nameless cookie, which is what every server must
read, and the short value is within the limit. Every other generated cookie — over the limit,
under it, any cookie-octet — is still sent and judged.
"""

import schemathesis

_NOT_COOKIE_OCTETS = frozenset(chr(c) for c in range(0x21)) | frozenset('",;\\\x7f')


@schemathesis.hook
def filter_cookies(context, cookies):
    return all(not isinstance(v, str) or _NOT_COOKIE_OCTETS.isdisjoint(v) for v in (cookies or {}).values())
