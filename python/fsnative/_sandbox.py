"""`Sandbox`, the compiled class plus asyncio variants of its searches."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import warnings
from typing import TYPE_CHECKING, Any, Callable, Coroutine, Literal, TypeVar

from fsnative import _fsnative
from fsnative._index import IndexOptions

if TYPE_CHECKING:
    from collections.abc import Iterable

    from typing_extensions import Concatenate, ParamSpec, Self

    from fsnative._fsnative import _Frecency, _FsPath, _Index, _Thesaurus

    _Options = ParamSpec("_Options")

_Result = TypeVar("_Result")


def _awaitable(
    search: Callable[Concatenate[_fsnative.Sandbox, _Options], _Result],
) -> Callable[Concatenate[_fsnative.Sandbox, _Options], Coroutine[Any, Any, _Result]]:
    """An async method that runs ``search`` in the event loop's default executor.

    It takes exactly ``search``'s arguments. Cancelling the awaiting task cancels the search
    (through its ``cancel`` token, a new one unless given) and waits the moment it takes to
    stop, so no search outlives its task.
    """

    async def run_in_executor(self: _fsnative.Sandbox, /, *args: Any, **options: Any) -> _Result:
        if options.get("cancel") is None:
            options["cancel"] = _fsnative.CancelToken()
        cancel: _fsnative.CancelToken = options["cancel"]
        loop = asyncio.get_running_loop()
        searching = loop.run_in_executor(None, functools.partial(search, self, *args, **options))
        try:
            return await asyncio.shield(searching)
        except asyncio.CancelledError:
            cancel.cancel()
            with contextlib.suppress(Exception):
                await searching  # returns within moments; the partial result is dropped
            raise

    run_in_executor.__name__ = f"{search.__name__}_async"
    run_in_executor.__qualname__ = f"Sandbox.{search.__name__}_async"
    run_in_executor.__doc__ = f"``await``-able :meth:`{search.__name__}`; cancelling the task cancels the search."
    return run_in_executor


class Sandbox(_fsnative.Sandbox):
    """A set of allowed root directories; every path and search stays inside them.

    ``Sandbox(["/repo"])`` canonicalises each root once (each must exist and be a directory).
    Methods release the GIL, so threads searching at once run in parallel, and a search on
    the main thread stops on Ctrl-C (``KeyboardInterrupt``).

    ``Sandbox(["/repo"], index=True)`` (or ``index=IndexOptions(...)``, or a dict of them) keeps
    a warm index of the roots; ``with Sandbox(...) as sb:`` closes it on leaving the block.
    ``frecency=`` (a database directory) records accesses and ranks by them; ``thesaurus=`` (a
    JSON file or a mapping) boosts paths by the concepts they mention.
    """

    def __new__(
        cls,
        roots: Iterable[_FsPath],
        *,
        index: _Index = False,
        frecency: _Frecency = None,
        record_hits: bool = False,
        thesaurus: _Thesaurus = None,
        boost_weight: int | None = None,
        max_boost: int | None = None,
    ) -> Self:
        if isinstance(index, IndexOptions):
            index = index.to_dict()
        ranking = {"frecency": frecency, "record_hits": record_hits, "thesaurus": thesaurus}
        return super().__new__(cls, roots, index=index, boost_weight=boost_weight, max_boost=max_boost, **ranking)

    def validate_path(self, path: _FsPath, intent: Literal["read", "write"] = "read") -> str:
        """Deprecated: the former name of :meth:`validate`, its name in every language."""
        warnings.warn("Sandbox.validate_path() is deprecated: use Sandbox.validate()", DeprecationWarning, stacklevel=2)
        return self.validate(path, intent)

    grep_async = _awaitable(_fsnative.Sandbox.grep)
    glob_async = _awaitable(_fsnative.Sandbox.glob)
    find_async = _awaitable(_fsnative.Sandbox.find)
