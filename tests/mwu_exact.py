# mwu_exact.py: the expected values of tests/check_runs.c, by brute force:
# every split of the ranks enumerated (mid-ranks for ties), and the
# Hodges-Lehmann change with its interval from the sorted log-ratios.
import itertools, math
def ranks(vals):
    s=sorted(vals); r={}
    i=0
    while i<len(s):
        j=i
        while j<len(s) and s[j]==s[i]: j+=1
        r[s[i]]=(i+1+j)/2; i=j
    return [r[v] for v in vals]
def exact_p(a,b):
    allv=a+b; rk=ranks(allv); n=len(allv); na=len(a)
    w=sum(rk[:na]); mean=na*(n+1)/2; obs=abs(w-mean)
    cnt=0; tot=0
    for c in itertools.combinations(range(n),na):
        tot+=1
        if abs(sum(rk[i] for i in c)-mean)>=obs-1e-9: cnt+=1
    return cnt/tot, cnt, tot
print(exact_p([1,2,3,4,5],[6,7,8,9,10]))
print(exact_p([1,2,2,3],[2,3,4,5]))
print(exact_p([10.5,11.2,10.1,12.0,11.7],[11.9,12.5,13.1,12.2,14.0]))
a=[10.5,11.2,10.1,12.0,11.7]; b=[11.9,12.5,13.1,12.2,14.0]
d=sorted(math.log(y)-math.log(x) for x in a for y in b)
m=len(d); print("hl", math.expm1((d[m//2]) if m%2 else (d[m//2-1]+d[m//2])/2), "lo", math.expm1(d[2]), "hi", math.expm1(d[m-3]))
a=[100,110,120,130]; b=[150,160,170,180]
d=sorted(math.log(y)-math.log(x) for x in a for y in b)
m=len(d); print("hl", math.expm1((d[m//2-1]+d[m//2])/2), "lo", math.expm1(d[0]), "hi", math.expm1(d[m-1]))
