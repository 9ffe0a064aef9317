#!/bin/bash
# expect: 1 MaxExpressionDepth
# command: parse --validate
printf '$x = '
yes '$y ? { 1 => ' | head -n 200000 | tr -d '\n'
printf 1
yes '}' | head -n 200000 | tr -d '\n'
echo
