from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from typing_extensions import Self

T = TypeVar("T", bound="AdminGetJobResponse200AttemptsItem")


@_attrs_define
class AdminGetJobResponse200AttemptsItem:
    """
    Attributes:
        attempt (int):
        lease_owner (None | str):
        started_at (None | str):
        ended_at (None | str):
        duration_ms (float | None):
        outcome (str):
        error_code (None | str):
        message (None | str):
    """

    attempt: int
    lease_owner: None | str
    started_at: None | str
    ended_at: None | str
    duration_ms: float | None
    outcome: str
    error_code: None | str
    message: None | str

    def to_dict(self) -> dict[str, Any]:
        attempt = self.attempt

        lease_owner: None | str
        lease_owner = self.lease_owner

        started_at: None | str
        started_at = self.started_at

        ended_at: None | str
        ended_at = self.ended_at

        duration_ms: float | None
        duration_ms = self.duration_ms

        outcome = self.outcome

        error_code: None | str
        error_code = self.error_code

        message: None | str
        message = self.message

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "attempt": attempt,
                "lease_owner": lease_owner,
                "started_at": started_at,
                "ended_at": ended_at,
                "duration_ms": duration_ms,
                "outcome": outcome,
                "error_code": error_code,
                "message": message,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        attempt = d.pop("attempt")

        def _parse_lease_owner(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        lease_owner = _parse_lease_owner(d.pop("lease_owner"))

        def _parse_started_at(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        started_at = _parse_started_at(d.pop("started_at"))

        def _parse_ended_at(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        ended_at = _parse_ended_at(d.pop("ended_at"))

        def _parse_duration_ms(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        duration_ms = _parse_duration_ms(d.pop("duration_ms"))

        outcome = d.pop("outcome")

        def _parse_error_code(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        error_code = _parse_error_code(d.pop("error_code"))

        def _parse_message(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        message = _parse_message(d.pop("message"))

        admin_get_job_response_200_attempts_item = cls(
            attempt=attempt,
            lease_owner=lease_owner,
            started_at=started_at,
            ended_at=ended_at,
            duration_ms=duration_ms,
            outcome=outcome,
            error_code=error_code,
            message=message,
        )

        return admin_get_job_response_200_attempts_item
