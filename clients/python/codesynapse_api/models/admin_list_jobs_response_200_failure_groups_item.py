from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from typing_extensions import Self

T = TypeVar("T", bound="AdminListJobsResponse200FailureGroupsItem")


@_attrs_define
class AdminListJobsResponse200FailureGroupsItem:
    """
    Attributes:
        kind (str):
        error_code (None | str):
        count (int):
        requeueable (int):
        last_at (None | str):
        message (None | str):
    """

    kind: str
    error_code: None | str
    count: int
    requeueable: int
    last_at: None | str
    message: None | str

    def to_dict(self) -> dict[str, Any]:
        kind = self.kind

        error_code: None | str
        error_code = self.error_code

        count = self.count

        requeueable = self.requeueable

        last_at: None | str
        last_at = self.last_at

        message: None | str
        message = self.message

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "kind": kind,
                "error_code": error_code,
                "count": count,
                "requeueable": requeueable,
                "last_at": last_at,
                "message": message,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        kind = d.pop("kind")

        def _parse_error_code(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        error_code = _parse_error_code(d.pop("error_code"))

        count = d.pop("count")

        requeueable = d.pop("requeueable")

        def _parse_last_at(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        last_at = _parse_last_at(d.pop("last_at"))

        def _parse_message(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        message = _parse_message(d.pop("message"))

        admin_list_jobs_response_200_failure_groups_item = cls(
            kind=kind,
            error_code=error_code,
            count=count,
            requeueable=requeueable,
            last_at=last_at,
            message=message,
        )

        return admin_list_jobs_response_200_failure_groups_item
