"""The setup choices of a new Kingdom Builder game on the server (its plugin's ``setup_schema``; the
server adds the seed). Imported by the server only: it needs pydantic."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints

Name = Annotated[str, StringConstraints(min_length=1, max_length=40)]


class KingdomSetup(BaseModel):
    """``mode`` first, random or custom (custom needs the 4 sections and the 3 cards)."""

    model_config = ConfigDict(extra="forbid")

    mode: Literal["first", "random", "custom"] = "random"
    sections: list[tuple[Name, bool]] | None = Field(
        None, min_length=4, max_length=4, description="custom: the 4 board sections, each [name, turned]"
    )
    cards: list[Name] | None = Field(None, min_length=3, max_length=3, description="custom: the 3 cards")
