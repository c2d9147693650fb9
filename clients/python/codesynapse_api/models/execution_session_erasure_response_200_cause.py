from typing import Literal

ExecutionSessionErasureResponse200Cause = Literal["expired", "revoked"]

EXECUTION_SESSION_ERASURE_RESPONSE_200_CAUSE_VALUES: set[
    ExecutionSessionErasureResponse200Cause
] = {
    "expired",
    "revoked",
}


def check_execution_session_erasure_response_200_cause(
    value: str,
) -> ExecutionSessionErasureResponse200Cause:
    if value in EXECUTION_SESSION_ERASURE_RESPONSE_200_CAUSE_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {EXECUTION_SESSION_ERASURE_RESPONSE_200_CAUSE_VALUES!r}"
    )
