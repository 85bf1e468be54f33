"""Generic snapshots of dataclass states: ``encode(state)`` to JSON-safe data, ``decode(cls, data)``
back, driven by the fields' type hints.

Supported field types: ``int``, ``float``, ``str``, ``bool``, ``None``, ``X | None``, ``list[X]``,
``tuple[X, ...]``, ``set[X]`` / ``frozenset[X]`` (stored sorted), ``dict[K, V]`` (int keys stored
as text, since JSON keys are text), ``Any`` (stored as is: keep it JSON-safe), nested dataclasses,
and the kit's ``Rng`` (stored as hex text). Integers stay integers, so a state that round-trips
is equal to the original (``decode(type(s), encode(s)) == s``).
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Callable, Mapping
from functools import cache
from typing import Any, TypeVar, Union, cast, get_args, get_origin, get_type_hints

from engines.kit.rng import Rng

S = TypeVar("S")
Codec = tuple[Callable[[Any], Any], Callable[[Any], Any]]


def encode(state: Any) -> dict[str, Any]:
    """The snapshot of a dataclass state."""
    enc, _ = _codec(cast(Any, type(state)))
    return dict(enc(state))


def decode(cls: type[S], data: Mapping[str, Any]) -> S:
    """The state a snapshot stands for."""
    _, dec = _codec(cast(Any, cls))
    return dec(data)  # type: ignore[no-any-return]


def _same(x: Any) -> Any:
    return x


@cache
def _codec(tp: Any) -> Codec:
    if tp is Any or tp in (int, float, str, bool, type(None)):
        return _same, _same
    if tp is Rng:
        return (lambda r: r.encode()), Rng.decode
    if dataclasses.is_dataclass(tp) and isinstance(tp, type):
        return _dataclass_codec(tp)
    origin, args = get_origin(tp), get_args(tp)
    if origin in (Union, types.UnionType):
        inner = [a for a in args if a is not type(None)]
        if len(inner) != 1:
            raise TypeError(f"snapshots support X | None unions only, not {tp}")
        e, d = _codec(inner[0])
        return (lambda x: None if x is None else e(x)), (lambda x: None if x is None else d(x))
    if origin is list:
        e, d = _codec(args[0])
        if e is _same:
            return list, list
        return (lambda xs: [e(x) for x in xs]), (lambda xs: [d(x) for x in xs])
    if origin is tuple:
        e, d = _codec(args[0])
        return (lambda xs: [e(x) for x in xs]), (lambda xs: tuple(d(x) for x in xs))
    if origin in (set, frozenset):
        e, d = _codec(args[0])
        build = origin
        return (lambda xs: sorted(e(x) for x in xs)), (lambda xs: build(d(x) for x in xs))
    if origin is dict:
        ke, kd = _key_codec(args[0])
        ve, vd = _codec(args[1])
        return ((lambda m: {ke(k): ve(v) for k, v in m.items()}),
                (lambda m: {kd(k): vd(v) for k, v in m.items()}))
    raise TypeError(f"snapshots do not support fields of type {tp}")


def _key_codec(tp: Any) -> Codec:
    if tp is int:
        return str, int
    if tp is str:
        return _same, _same
    raise TypeError(f"snapshot dict keys must be int or str, not {tp}")


def _dataclass_codec(cls: type) -> Codec:
    hints = get_type_hints(cls, vars(typing) | vars(__import__(cls.__module__, fromlist=["_"])))
    fields = [(f.name, *_codec(hints[f.name])) for f in dataclasses.fields(cls) if f.init]

    def enc(obj: Any) -> dict[str, Any]:
        return {name: e(getattr(obj, name)) for name, e, _ in fields}

    def dec(data: Mapping[str, Any]) -> Any:
        return cls(**{name: d(data[name]) for name, _, d in fields if name in data})

    return enc, dec
