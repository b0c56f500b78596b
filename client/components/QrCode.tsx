/**
 * A QR code image for a URL, drawn with the `qrcode` package as a data: URL. The image is
 * generated in an effect, so the server and the first client render both show the same empty
 * placeholder box. The package is imported there too: the server never loads it.
 */
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";

export type QrCodeProps = {
  /** The text to encode, usually an absolute share URL. */
  value: string;
  /** Edge length in CSS pixels. */
  size?: number;
  /** Alt text; defaults to "QR code for <value>". */
  alt?: string;
  className?: string;
};

/** An <img> of the QR code of `value`, with alt text; a sized placeholder until drawn. */
export function QrCode({ value, size = 200, alt, className }: QrCodeProps) {
  const { t } = useTranslation();
  const [src, setSrc] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    let live = true;
    setFailed(false);
    import("qrcode").then(({ default: QRCode }) =>
      QRCode.toDataURL(value, {
        width: size * 2,
        margin: 1,
        errorCorrectionLevel: "M",
        color: { dark: "#000000", light: "#ffffff" },
      })
    ).then(
      (url) => live && setSrc(url),
      () => live && setFailed(true),
    );
    return () => {
      live = false;
    };
  }, [value, size]);

  const label = alt ?? t("shell.qrCode.alt", { value });
  const style = { width: size, height: size };
  if (failed || !src) {
    return (
      <div
        className={`qr-code ${failed ? "qr-code-failed" : "qr-code-loading"} ${className ?? ""}`}
        style={style}
        role="img"
        aria-label={label}
        aria-busy={failed ? undefined : "true"}
      >
        {failed ? t("shell.qrCode.failed") : null}
      </div>
    );
  }
  return (
    <img
      className={`qr-code ${className ?? ""}`}
      src={src}
      width={size}
      height={size}
      alt={label}
    />
  );
}
