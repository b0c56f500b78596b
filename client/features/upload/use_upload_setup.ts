/** Loads what the upload screen needs first: the max upload size and the storage configs. */
import { useCallback, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { errorText } from "../../api/errors.ts";
import {
  FALLBACK_MAX_UPLOAD,
  getMaxUploadSize,
  listUploadTargets,
  type MaxUploadSize,
  type StorageConfigView,
} from "./upload_api.ts";

export type UploadSetup = {
  /**
   * Null while loading; the fallback of docs/PRODUCT.md §9.1 (100 MB) when the server cannot say.
   */
  maxSize: MaxUploadSize | null;
  /** Null while loading or after an error. */
  configs: StorageConfigView[] | null;
  configsError: string | null;
  reloadConfigs: () => void;
};

export function useUploadSetup(): UploadSetup {
  const { t } = useTranslation();
  const [maxSize, setMaxSize] = useState<MaxUploadSize | null>(null);
  const [configs, setConfigs] = useState<StorageConfigView[] | null>(null);
  const [configsError, setConfigsError] = useState<string | null>(null);

  const reloadConfigs = useCallback(() => {
    setConfigsError(null);
    listUploadTargets().then(setConfigs, (err) => {
      setConfigs(null);
      setConfigsError(errorText(t, err));
    });
  }, [t]);

  useEffect(() => {
    let live = true;
    getMaxUploadSize().then(
      (size) => live && setMaxSize(size.bytes > 0 ? size : FALLBACK_MAX_UPLOAD),
      () => live && setMaxSize(FALLBACK_MAX_UPLOAD),
    );
    return () => {
      live = false;
    };
  }, []);

  useEffect(() => {
    reloadConfigs();
  }, [reloadConfigs]);

  return { maxSize, configs, configsError, reloadConfigs };
}
