"""The built columns every dataset shares: the text, and the binary label (``non-hateful``,
``hateful``). ``ConfigSpec.text_column`` names the raw text column, which may differ."""

TEXT_COLUMN = "text"
LABEL_COLUMN = "label"
