"""The built-in user-experience survey form (the default TOUCHLINE_SURVEY_FORM_URL).

A small self-contained page the webapp's survey dialog embeds in a frame: two questions, no
external resources, its own strict Content-Security-Policy (its one inline script and style by
hash, nothing else loads, only this server's pages may frame it). On submit it tells the dialog
by `postMessage` — to this server's origin only — `{type: "touchline-survey", status:
"submitted", answers: {rating, comment}}`; the dialog checks the message's origin and source,
records the submission and tracks the answers as an analytics event. `?lang=` picks the language
(the webapp's 14 locales; Hebrew right to left).
"""

import base64
import hashlib
from html import escape

from starlette.requests import Request
from starlette.responses import HTMLResponse

STRINGS: dict[str, dict[str, str]] = {
    "en": {
        "title": "How are we doing?",
        "rating": "How would you rate your experience with Touchline?",
        "low": "Poor",
        "high": "Excellent",
        "comment": "What could we do better? (optional)",
        "submit": "Send",
        "thanks": "Thank you for your feedback!",
    },
    "de": {
        "title": "Wie machen wir uns?",
        "rating": "Wie bewerten Sie Ihre Erfahrung mit Touchline?",
        "low": "Schlecht",
        "high": "Ausgezeichnet",
        "comment": "Was könnten wir besser machen? (optional)",
        "submit": "Senden",
        "thanks": "Vielen Dank für Ihr Feedback!",
    },
    "es": {
        "title": "¿Qué tal lo estamos haciendo?",
        "rating": "¿Cómo valorarías tu experiencia con Touchline?",
        "low": "Mala",
        "high": "Excelente",
        "comment": "¿Qué podríamos mejorar? (opcional)",
        "submit": "Enviar",
        "thanks": "¡Gracias por tu opinión!",
    },
    "fr": {
        "title": "Votre avis compte",
        "rating": "Comment évaluez-vous votre expérience avec Touchline ?",
        "low": "Mauvaise",
        "high": "Excellente",
        "comment": "Que pourrions-nous améliorer ? (facultatif)",
        "submit": "Envoyer",
        "thanks": "Merci pour votre avis !",
    },
    "fr-CA": {
        "title": "Votre avis compte",
        "rating": "Comment évaluez-vous votre expérience avec Touchline?",
        "low": "Mauvaise",
        "high": "Excellente",
        "comment": "Qu'est-ce qu'on pourrait améliorer? (facultatif)",
        "submit": "Envoyer",
        "thanks": "Merci de vos commentaires!",
    },
    "he": {
        "title": "איך אנחנו עושים?",
        "rating": "איך היית מדרג/ת את החוויה שלך עם Touchline?",
        "low": "גרועה",
        "high": "מצוינת",
        "comment": "מה נוכל לשפר? (לא חובה)",
        "submit": "שליחה",
        "thanks": "תודה על המשוב!",
    },
    "it": {
        "title": "Come stiamo andando?",
        "rating": "Come valuteresti la tua esperienza con Touchline?",
        "low": "Scarsa",
        "high": "Eccellente",
        "comment": "Cosa potremmo migliorare? (facoltativo)",
        "submit": "Invia",
        "thanks": "Grazie per il tuo feedback!",
    },
    "pl": {
        "title": "Jak nam idzie?",
        "rating": "Jak oceniasz swoje doświadczenia z Touchline?",
        "low": "Słabo",
        "high": "Doskonale",
        "comment": "Co moglibyśmy poprawić? (opcjonalnie)",
        "submit": "Wyślij",
        "thanks": "Dziękujemy za opinię!",
    },
    "pt": {
        "title": "Como estamos a ir?",
        "rating": "Como avalia a sua experiência com a Touchline?",
        "low": "Má",
        "high": "Excelente",
        "comment": "O que podemos melhorar? (opcional)",
        "submit": "Enviar",
        "thanks": "Obrigado pela sua opinião!",
    },
    "ca": {
        "title": "Com ho estem fent?",
        "rating": "Com valoraries la teva experiència amb Touchline?",
        "low": "Dolenta",
        "high": "Excel·lent",
        "comment": "Què podríem millorar? (opcional)",
        "submit": "Envia",
        "thanks": "Gràcies per la teva opinió!",
    },
    "ko": {
        "title": "서비스는 어떠셨나요?",
        "rating": "Touchline 이용 경험을 평가해 주세요.",
        "low": "나쁨",
        "high": "매우 좋음",
        "comment": "개선할 점이 있을까요? (선택 사항)",
        "submit": "보내기",
        "thanks": "의견을 보내 주셔서 감사합니다!",
    },
    "zh": {
        "title": "您的体验如何？",
        "rating": "您如何评价使用 Touchline 的体验？",
        "low": "很差",
        "high": "非常好",
        "comment": "我们可以在哪些方面做得更好？（选填）",
        "submit": "提交",
        "thanks": "感谢您的反馈！",
    },
    "bs-BA": {
        "title": "Kako nam ide?",
        "rating": "Kako biste ocijenili svoje iskustvo s Touchlineom?",
        "low": "Loše",
        "high": "Odlično",
        "comment": "Šta bismo mogli poboljšati? (nije obavezno)",
        "submit": "Pošalji",
        "thanks": "Hvala na povratnim informacijama!",
    },
    "uk-UA": {
        "title": "Як у нас справи?",
        "rating": "Як ви оцінюєте свій досвід користування Touchline?",
        "low": "Погано",
        "high": "Чудово",
        "comment": "Що ми могли б покращити? (необов'язково)",
        "submit": "Надіслати",
        "thanks": "Дякуємо за ваш відгук!",
    },
}
RIGHT_TO_LEFT = {"he"}

STYLE = (
    "body{margin:0;font:16px/1.5 system-ui,sans-serif;color:#0f1624;background:#fff}"
    "main{max-width:32rem;margin:0 auto;padding:1.5rem}"
    "h1{font-size:1.4rem;margin:0 0 1rem}"
    "fieldset{border:0;padding:0;margin:0 0 1rem}legend{font-weight:600;margin-bottom:.5rem}"
    ".scale{display:flex;gap:.5rem;align-items:center;flex-wrap:wrap}"
    ".scale label{display:flex;flex-direction:column;align-items:center;font-size:.9rem}"
    "textarea{width:100%;min-height:6rem;box-sizing:border-box;font:inherit;margin:.25rem 0 1rem}"
    "button{font:inherit;padding:.5rem 1.5rem;border:0;border-radius:.4rem;background:#1f6feb;color:#fff}"
    ".hint{font-size:.85rem;color:#4a5568}"
)
# Sends the answers to the page that framed this one, on this server's origin only.
SCRIPT = (
    "(function(){var f=document.getElementById('survey');"
    "f.addEventListener('submit',function(e){e.preventDefault();var d=new FormData(f);var r=d.get('rating');"
    "var m={type:'touchline-survey',status:'submitted',answers:{rating:r?Number(r):null,"
    "comment:String(d.get('comment')||'').slice(0,500)}};"
    "f.hidden=true;document.getElementById('thanks').hidden=false;"
    "if(window.parent!==window){window.parent.postMessage(m,window.location.origin);}});})();"
)


def _hash(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode() + "'"


POLICY = (
    f"default-src 'none'; script-src {_hash(SCRIPT)}; style-src {_hash(STYLE)}; img-src 'none'; "
    "form-action 'none'; base-uri 'none'; frame-ancestors 'self'"
)


def render(lang: str) -> str:
    strings = STRINGS.get(lang) or STRINGS["en"]
    lang = lang if lang in STRINGS else "en"
    text = {key: escape(value) for key, value in strings.items()}
    direction = "rtl" if lang in RIGHT_TO_LEFT else "ltr"
    scale = "".join(f'<label><input type="radio" name="rating" value="{n}" required>{n}</label>' for n in range(1, 6))
    return (
        f'<!doctype html><html lang="{lang}" dir="{direction}"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width,initial-scale=1">'
        f"<title>{text['title']}</title><style>{STYLE}</style></head><body><main>"
        f"<h1>{text['title']}</h1>"
        f'<form id="survey"><fieldset><legend>{text["rating"]}</legend>'
        f'<div class="scale"><span class="hint">{text["low"]}</span>{scale}'
        f'<span class="hint">{text["high"]}</span></div></fieldset>'
        f'<label for="comment">{text["comment"]}</label>'
        '<textarea id="comment" name="comment" maxlength="500"></textarea>'
        f'<button type="submit">{text["submit"]}</button></form>'
        f'<p id="thanks" role="status" hidden>{text["thanks"]}</p>'
        f"</main><script>{SCRIPT}</script></body></html>"
    )


async def survey_form(request: Request) -> HTMLResponse:
    return HTMLResponse(
        render(request.query_params.get("lang", "en")),
        headers={
            "Content-Security-Policy": POLICY,
            # Only this server's pages (the survey dialog) may frame it.
            "X-Frame-Options": "SAMEORIGIN",
            "Cache-Control": "no-cache",
        },
    )
