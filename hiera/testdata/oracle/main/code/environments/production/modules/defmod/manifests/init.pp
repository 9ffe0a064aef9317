class defmod {}
