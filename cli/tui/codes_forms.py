"""The Access codes screen's forms (cli/tui/codes.py): issue a batch (product, count, uses, expiry,
prefix), checked here before anything is sent, and export codes to a CSV or JSON file. Each is a
modal that answers a dataclass, or None when cancelled (Escape)."""

from dataclasses import dataclass
from typing import Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widget import Widget
from textual.widgets import Button, Input, Label, Select

from ..commands.codes import MAX_COUNT, MAX_USES, Format, normal_prefix, parse_expiry


@dataclass(frozen=True)
class IssueRequest:
    product_id: str
    count: int
    uses: int
    expires_at: str | None = None
    prefix: str | None = None

    def body(self) -> dict[str, Any]:
        """The request body of POST /admin/access_codes, less `count` (issue_in_batches sets it)."""
        body: dict[str, Any] = {"product_id": self.product_id, "uses": self.uses}
        if self.expires_at:
            body["expires_at"] = self.expires_at
        if self.prefix:
            body["prefix"] = self.prefix
        return body


@dataclass(frozen=True)
class ExportRequest:
    path: str
    format: Format


class FormError(ValueError):
    """What is wrong with one field of a form (`field`: the id of its widget)."""

    def __init__(self, field: str, message: str):
        super().__init__(message)
        self.field = field


def product_label(product: dict) -> str:
    """'Harbor City vs Riverside · ppv · 9.99 EUR' (what a staff member picks a product by)."""
    minor = product.get("priceMinor") or 0
    price = f"{minor / 100:.2f} {product.get('currency', '')}" if minor else "free"
    return f"{product.get('title', '')} · {product.get('type', '')} · {price}"


def _whole_number(field: str, text: str, name: str, highest: int) -> int:
    if not text.strip().isdecimal() or not 1 <= int(text) <= highest:
        raise FormError(field, f"{name} must be a whole number from 1 to {highest:,}")
    return int(text)


def issue_request(product: object, count: str, uses: str, expires: str, prefix: str) -> IssueRequest:
    """The form's fields, in its order, checked as `touchline codes issue` checks its options (the
    API's limits; a larger count goes in several requests); FormError names the first wrong one."""
    if not isinstance(product, str):
        raise FormError("product", "Pick the product the codes grant")
    whole_count = _whole_number("count", count, "Count", MAX_COUNT)
    whole_uses = _whole_number("uses", uses, "Uses per code", MAX_USES)
    try:
        expires_at = parse_expiry(expires) if expires.strip() else None
    except ValueError as error:
        raise FormError("expires", f"Expiry {expires.strip()!r} {error}") from None
    try:
        clean_prefix = normal_prefix(prefix) or None
    except ValueError as error:
        raise FormError("prefix", f"Prefix {prefix.strip()!r} {error}") from None
    return IssueRequest(
        product_id=product,
        count=whole_count,
        uses=whole_uses,
        expires_at=expires_at,
        prefix=clean_prefix,
    )


def form_row(name: str, field: Widget) -> Horizontal:
    """One line of a form: the field's name, then the field."""
    return Horizontal(Label(name), field, classes="row")


FORM_CSS = """
{form} {{ align: center middle; }}
{form} > Vertical {{ width: 72; height: auto; border: thick $accent; background: $surface; padding: 0 1; }}
{form} .row {{ height: 1; margin-bottom: 1; }}
{form} .row > Label {{ width: 10; }}
{form} .row > Input, {form} .row > Select {{ width: 1fr; }}
{form} #error {{ color: $error; height: auto; }}
{form} .buttons {{ height: auto; align-horizontal: right; }}
{form} Button {{ margin-left: 2; }}
"""


class IssueForm(ModalScreen[IssueRequest | None]):
    """Issue a batch: Enter in a field or the Issue button checks the fields and answers the
    request; a wrong field is named under the fields and gets the focus."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel", id="issue_form.cancel")]
    DEFAULT_CSS = FORM_CSS.format(form="IssueForm")

    def __init__(self, products: list[dict]):
        super().__init__()
        self.products = products

    def compose(self) -> ComposeResult:
        with Vertical() as form:
            form.border_title = "Issue access codes"
            yield form_row(
                "Product",
                Select(
                    # Text: a title is staff's text, never read as markup.
                    [(Text(product_label(p)), p["_id"]) for p in self.products],
                    prompt="pick a product",
                    id="product",
                    compact=True,
                ),
            )
            yield form_row("Count", Input(placeholder=f"1 to {MAX_COUNT:,}", id="count", compact=True))
            yield form_row("Uses each", Input("1", placeholder="accounts per code", id="uses", compact=True))
            yield form_row(
                "Expires", Input(placeholder="YYYY-MM-DD or ISO date-time; empty: never", id="expires", compact=True)
            )
            yield form_row("Prefix", Input(placeholder="optional: up to 12 letters/digits", id="prefix", compact=True))
            yield Label("", id="error")
            with Horizontal(classes="buttons"):
                yield Button("Cancel", id="cancel", compact=True)
                yield Button("Issue", id="issue", variant="primary", compact=True)

    def on_mount(self) -> None:
        self.query_one("#product", Select).focus()

    def _value(self, field: str) -> str:
        return self.query_one(f"#{field}", Input).value

    def submit(self) -> None:
        try:
            request = issue_request(
                self.query_one("#product", Select).value,
                self._value("count"),
                self._value("uses"),
                self._value("expires"),
                self._value("prefix"),
            )
        except FormError as error:
            self.query_one("#error", Label).update(str(error))
            self.query_one(f"#{error.field}").focus()
            return
        self.dismiss(request)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.submit()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "issue":
            self.submit()
        else:
            self.dismiss(None)

    def action_cancel(self) -> None:
        self.dismiss(None)


class ExportForm(ModalScreen[ExportRequest | None]):
    """Where to write the codes and in which format; changing the format changes the file's
    extension while it is the other format's."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel", id="export_form.cancel")]
    DEFAULT_CSS = FORM_CSS.format(form="ExportForm")

    def __init__(self, what: str, default_path: str):
        super().__init__()
        self.what = what
        self.default_path = default_path

    def compose(self) -> ComposeResult:
        with Vertical() as form:
            form.border_title = "Export access codes"
            yield Label(self.what, classes="row")
            yield form_row("File", Input(self.default_path, id="path", compact=True))
            yield form_row(
                "Format",
                Select(
                    [(f.value.upper(), f) for f in Format],
                    value=Format.csv,
                    allow_blank=False,
                    id="format",
                    compact=True,
                ),
            )
            yield Label("", id="error")
            with Horizontal(classes="buttons"):
                yield Button("Cancel", id="cancel", compact=True)
                yield Button("Export", id="export", variant="primary", compact=True)

    def on_mount(self) -> None:
        self.query_one("#path", Input).focus()

    def on_select_changed(self, event: Select.Changed) -> None:
        path = self.query_one("#path", Input)
        other = ".json" if event.value is Format.csv else ".csv"
        if isinstance(event.value, Format) and path.value.endswith(other):
            path.value = path.value[: -len(other)] + f".{event.value.value}"

    def submit(self) -> None:
        path = self.query_one("#path", Input).value.strip()
        chosen = self.query_one("#format", Select).value
        if not path:
            self.query_one("#error", Label).update("Name the file to write")
            return
        self.dismiss(ExportRequest(path, chosen if isinstance(chosen, Format) else Format.csv))

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.submit()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "export":
            self.submit()
        else:
            self.dismiss(None)

    def action_cancel(self) -> None:
        self.dismiss(None)
