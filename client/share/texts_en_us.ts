/**
 * The en-US texts of the share pages. The build (scripts/build.ts, shareTextsPlugin) evaluates
 * this module and bundles its result, the picked keys as one JSON literal, instead of every
 * locale file and both languages' error texts that the source below reads.
 */
import { pickShareTexts, registerShareTexts } from "./texts.ts";
import { resourceFor } from "../i18n/mod.ts";

registerShareTexts("en-US", pickShareTexts(resourceFor("en-US")));
