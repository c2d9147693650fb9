"""Run Milvus Lite (milvus-lite 3.x, pure Python) as a gRPC server on 127.0.0.1.

Usage: python serve.py DATA_DIR HOST PORT

Milvus Lite 3.x rejects filter expression templates (`tenant_id == {t}` +
expr_template_values, which the Node SDK sends for `exprValues`) with
"unexpected character '{'". Real Milvus >= 2.5 substitutes them server-side.
Unless MILVUS_LITE_TEMPLATE_SHIM=0, this launcher does that substitution
in front of Milvus Lite's own servicer (Search, Query, Delete, HybridSearch),
rendering each value as a typed literal (strings quoted and escaped), so an
adapter can use exprValues exactly as against a real Milvus.
"""
from __future__ import annotations

import json
import math
import os
import sys

from milvus_lite.adapter.grpc import servicer as _servicer_mod
from milvus_lite.adapter.grpc.server import run_server


def _render_string(s: str) -> str:
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\r", "\\r").replace("\t", "\\t") + '"'


def _render_float(f: float) -> str:
    if math.isnan(f) or math.isinf(f):
        raise ValueError("non-finite float in expr template")
    return repr(float(f))


def _render_array(arr) -> str:
    kind = arr.WhichOneof("data")
    if kind is None:
        return "[]"
    if kind == "bool_data":
        items = ["true" if b else "false" for b in arr.bool_data.data]
    elif kind == "long_data":
        items = [str(int(v)) for v in arr.long_data.data]
    elif kind == "double_data":
        items = [_render_float(v) for v in arr.double_data.data]
    elif kind == "string_data":
        items = [_render_string(v) for v in arr.string_data.data]
    elif kind == "array_data":
        items = [_render_array(v) for v in arr.array_data.data]
    elif kind == "json_data":
        items = [json.dumps(json.loads(v)) for v in arr.json_data.data]
    else:
        raise ValueError(f"unsupported template array type {kind}")
    return "[" + ", ".join(items) + "]"


def _render(value) -> str:
    kind = value.WhichOneof("val")
    if kind == "bool_val":
        return "true" if value.bool_val else "false"
    if kind == "int64_val":
        return str(int(value.int64_val))
    if kind == "float_val":
        return _render_float(value.float_val)
    if kind == "string_val":
        return _render_string(value.string_val)
    if kind == "array_val":
        return _render_array(value.array_val)
    raise ValueError(f"unsupported template value type {kind}")


def substitute(expr: str, values) -> str:
    """Replace {name} placeholders outside string literals."""
    if not expr or not values:
        return expr
    out, i, n = [], 0, len(expr)
    while i < n:
        ch = expr[i]
        if ch in "\"'":
            j = i + 1
            while j < n and expr[j] != ch:
                j += 2 if expr[j] == "\\" else 1
            out.append(expr[i:j + 1])
            i = j + 1
            continue
        if ch == "{":
            j = expr.find("}", i)
            name = expr[i + 1:j].strip() if j > 0 else ""
            if name and name.replace("_", "a").isalnum() and name in values:
                out.append(_render(values[name]))
                i = j + 1
                continue
        out.append(ch)
        i += 1
    return "".join(out)


def _patch(request, field: str):
    values = request.expr_template_values
    if len(values) == 0:
        return request
    patched = type(request)()
    patched.CopyFrom(request)
    setattr(patched, field, substitute(getattr(request, field), values))
    patched.ClearField("expr_template_values")
    return patched


def install_shim() -> None:
    cls = _servicer_mod.MilvusServicer
    orig_search, orig_query, orig_delete = cls.Search, cls.Query, cls.Delete
    orig_hybrid = getattr(cls, "HybridSearch", None)

    def Search(self, request, context):
        return orig_search(self, _patch(request, "dsl"), context)

    def Query(self, request, context):
        return orig_query(self, _patch(request, "expr"), context)

    def Delete(self, request, context):
        return orig_delete(self, _patch(request, "expr"), context)

    cls.Search, cls.Query, cls.Delete = Search, Query, Delete

    if orig_hybrid is not None:
        def HybridSearch(self, request, context):
            if any(len(r.expr_template_values) for r in request.requests):
                patched = type(request)()
                patched.CopyFrom(request)
                for r in patched.requests:
                    if len(r.expr_template_values):
                        r.dsl = substitute(r.dsl, r.expr_template_values)
                        r.ClearField("expr_template_values")
                request = patched
            return orig_hybrid(self, request, context)
        cls.HybridSearch = HybridSearch


def main() -> None:
    data_dir, host, port = sys.argv[1], sys.argv[2], int(sys.argv[3])
    if host not in ("127.0.0.1", "localhost", "::1"):
        raise SystemExit("refusing to bind a non-loopback address")
    if os.environ.get("MILVUS_LITE_TEMPLATE_SHIM", "1") != "0":
        install_shim()
        print("expr template shim: on", flush=True)
    else:
        print("expr template shim: off", flush=True)
    sys.stdout.flush()
    run_server(data_dir=data_dir, host=host, port=port)


if __name__ == "__main__":
    main()
