#!/usr/bin/env python3
"""Checks every ```swift block of a DocC catalog's articles against the code, so that the
documentation shows only real API (Scripts/build-docs.sh runs it after building the module).

A block right after the line

    <!-- example: <path> -->

must be a run of consecutive lines of <path> (an example that CI builds, such as
Examples/AppExample/Sources/app-example/main.swift), character for character.

Every other block must compile on its own against the built module: it is put in the body of an
`async throws` function in a file that imports Foundation and JSONStore (its own `import` lines
are moved to the top), and all such files are type-checked in one `swiftc -typecheck` run.
Warnings (an unused value) are not reported; errors are, with the article and line.

    Scripts/check-docc-snippets.py <catalog> <modules dir> <bin dir> <target triple>

Exit 0 when every block passes, 1 otherwise.
"""
import os
import re
import subprocess
import sys
import tempfile

marker = re.compile(r'^<!-- example: (\S+) -->$')


def blocks(path):
    """(line number of the fence, the example path or None, the block's lines) per ```swift block."""
    lines = open(path, encoding='utf-8').read().split('\n')
    i = 0
    while i < len(lines):
        if lines[i].strip() == '```swift':
            example = None
            if i > 0 and marker.match(lines[i - 1]):
                example = marker.match(lines[i - 1]).group(1)
            j = i + 1
            while j < len(lines) and lines[j].strip() != '```':
                j += 1
            yield i + 1, example, lines[i + 1:j]
            i = j
        i += 1


def contains_run(haystack, needle):
    n = len(needle)
    return any(haystack[k:k + n] == needle for k in range(len(haystack) - n + 1))


def main():
    catalog, modules, bin_dir, triple = sys.argv[1:5]
    failures = 0
    excerpts = 0
    work = tempfile.mkdtemp(prefix='docc-snippets.')
    sources = {}  # wrapper file -> (article, fence line, first body line in the wrapper)
    for name in sorted(os.listdir(catalog)):
        if not name.endswith('.md'):
            continue
        article = os.path.join(catalog, name)
        for number, (fence, example, body) in enumerate(blocks(article), start=1):
            if example is not None:
                excerpts += 1
                if not os.path.isfile(example):
                    print(f'{article}:{fence}: the example file {example} does not exist', file=sys.stderr)
                    failures += 1
                elif not contains_run(open(example, encoding='utf-8').read().split('\n'), body):
                    print(f'{article}:{fence}: the block is not a run of lines of {example}', file=sys.stderr)
                    failures += 1
                continue
            imports = [line for line in body if line.startswith('import ')]
            code = [line for line in body if not line.startswith('import ')]
            header = ['import Foundation', 'import JSONStore'] + imports
            stem = re.sub(r'\W', '_', name[:-3])
            wrapper = os.path.join(work, f'{stem}_{number}.swift')
            text = header + [f'func snippet_{stem}_{number}() async throws {{'] + ['    ' + line for line in code] + ['}', '']
            with open(wrapper, 'w', encoding='utf-8') as f:
                f.write('\n'.join(text))
            sources[wrapper] = (article, fence, len(header) + 2)
    if sources:
        command = ['swiftc', '-typecheck', '-parse-as-library', '-swift-version', '6', '-suppress-warnings',
                   '-target', triple, '-I', modules, '-I', 'Sources/CSHA256/include',
                   '-Xcc', f'-fmodule-map-file={os.path.join(bin_dir, "CSHA256.build", "module.modulemap")}',
                   '-module-name', 'DocCSnippets'] + sorted(sources)
        result = subprocess.run(command, capture_output=True, text=True)
        if result.returncode != 0:
            output = result.stdout + result.stderr
            # Point each error at the article's line: wrapper line L is the block's line L - first + 1.
            for wrapper, (article, fence, first) in sources.items():
                def where(match, article=article, fence=fence, first=first):
                    return f'{article}:{fence + int(match.group(1)) - first + 1}:'
                output = re.sub(re.escape(wrapper) + r':(\d+):', where, output)
            print(output, file=sys.stderr)
            failures += 1
    print(f'check-docc-snippets: {len(sources)} block(s) type-checked, {excerpts} example excerpt(s) compared: '
          + ('ok' if failures == 0 else 'FAILED'))
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
