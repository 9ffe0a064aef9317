function foo() >> Integer
