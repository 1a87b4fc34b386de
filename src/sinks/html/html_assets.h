/* html_assets.h — the page's fixed style and script (html_assets.c),
 * written inline: a report opens with no network and no other file. */
#ifndef PW_SINKS_HTML_ASSETS_H
#define PW_SINKS_HTML_ASSETS_H
extern const char html_style[];
extern const char html_script[];
#endif
