"""A client library for accessing CodeSynapse execution platform"""

from .client import AuthenticatedClient, Client

__all__ = (
    "AuthenticatedClient",
    "Client",
)
